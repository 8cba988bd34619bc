import { readdir, readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';

/** Where the build writes the rendered guides (scripts/write-doc-pages.mjs): `dist/doc-pages/<section>/<page>.html`. */
const PAGES_DIR = new URL('../../dist/doc-pages/', import.meta.url);

const readPages = async (): Promise<Map<string, string>> => {
  const pages = new Map<string, string>();
  const entries = await readdir(PAGES_DIR, { recursive: true }).catch(() => [] as string[]);
  for (const entry of entries) {
    if (entry.endsWith('.html')) pages.set(entry.slice(0, -'.html'.length).split('\\').join('/'), await readFile(new URL(entry, PAGES_DIR), 'utf8'));
  }
  return pages;
};

/**
 * The connector guides and the reference, as pages a person reads beside the interactive reference:
 * `/api/public/docs/connectors/quick-start` is `docs/connectors/quick-start.md`. Read once at start.
 */
const docPages: FastifyPluginAsync = async (app) => {
  // One route per page, so that any other path is an unknown route (404), not a page with a wrong name.
  for (const [path, html] of await readPages()) {
    app.get(`/api/public/docs/${path}`, { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
  }
};

export default docPages;
