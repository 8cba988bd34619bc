import { isDomainError, revertablePin } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { href, pageContext } from './page-context.js';
import { modeOf, PORTAL_PATH, requireSession, sessionOf } from './session.js';

const PATH = `${PORTAL_PATH}/versions`;

/**
 * Versions: the pin, what each newer version changes (the changelog the registry generates), an upgrade, and the move
 * back within 72 hours (docs/reference/contract.md §10).
 */
export const versionRoutes = async (app: FastifyInstance) => {
  const supported = app.apiVersions.versions.map((v) => v.version);
  const render = async (request: FastifyRequest, reply: FastifyReply, error: string | null = null) => {
    const mode = modeOf(request);
    const ctx = await pageContext(request, reply, 'versions', 'Versions', mode);
    const pin = ctx.live.apiVersion;
    const newer = app.apiVersions.versions
      .filter((v) => supported.indexOf(v.version) > supported.indexOf(pin))
      .map((v) => ({ version: v.version, changes: v.changes.map((c) => c.description), deprecation: v.deprecation }));
    const revert = revertablePin(await app.portal.listActions(sessionOf(request).integrationId, 50), pin, app.portal.clock.now());
    return reply.view('versions.eta', { ...ctx, pin, newer, revert: revert && { version: revert.version, until: revert.until.toISOString() }, error });
  };

  app.get(PATH, { preHandler: requireSession }, render);

  app.post<{ Body: { version?: string } }>(PATH, { preHandler: [requireSession, app.csrfProtection] }, async (request, reply) => {
    const session = sessionOf(request);
    const live = await app.portal.findIntegration(session.integrationId);
    try {
      await app.portal.moveVersionPin({ session, mode: modeOf(request), from: live!.apiVersion, to: String(request.body?.version ?? ''), supported });
    } catch (err) {
      if (!isDomainError(err)) throw err;
      return render(request, reply.code(400), err.details?.map((d) => d.message).join(' ') ?? err.message);
    }
    return reply.redirect(href(PATH, modeOf(request)), 303);
  });
};
