import { changelogMarkdown } from '@garage/versions';
import type { FastifyPluginAsync } from 'fastify';

/** The versions' changelog (docs/reference/changelog.md), where a deprecated version's `Link` points. */
const changelogRoutes: FastifyPluginAsync = async (app) => {
  const markdown = changelogMarkdown(app.apiVersions);
  app.get('', { schema: { hide: true } }, async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(markdown));
};

export default changelogRoutes;
