import { isDomainError, type Mode, type WebhookTestResult } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMITS } from '../plugins/rate-limits.js';
import { href, pageContext } from './page-context.js';
import { modeOf, PORTAL_PATH, requireSession, sessionOf } from './session.js';

const PATH = `${PORTAL_PATH}/webhooks`;
const DELIVERIES_SHOWN = 20;

interface Outcome {
  /** The rules' errors of a refused URL, as `integration update` words them. */
  urlErrors?: string[];
  submittedUrl?: string;
  testResult?: WebhookTestResult;
  testError?: string;
  /** Shown once: the page that shows it is the answer to the rotation, never stored. */
  newSecret?: { secret: string; previousSecretExpiresAt: string };
  notice?: string;
}

const messagesOf = (err: unknown): string[] | null => {
  if (!isDomainError(err)) return null;
  return err.details?.length ? err.details.map((d) => d.message) : [err.message];
};

/**
 * Webhooks: the side's URL (the destination rules of docs/reference/contract.md §5 apply, their errors shown), a test
 * event, a secret rotation, and the deliveries with every attempt and a retry. Each action is the use case the CLI or
 * the API calls, and is recorded in the portal's audit.
 */
export const webhookRoutes = async (app: FastifyInstance) => {
  const render = async (request: FastifyRequest, reply: FastifyReply, mode: Mode, outcome: Outcome = {}) => {
    const ctx = await pageContext(request, reply, 'webhooks', 'Webhooks', mode);
    const deliveries = ctx.side ? await app.portal.listDeliveries({ integrationId: ctx.side.id, limit: DELIVERIES_SHOWN }) : [];
    return reply.view('webhooks.eta', { ...ctx, deliveries, outcome, href });
  };
  const back = (reply: FastifyReply, mode: Mode) => reply.redirect(href(PATH, mode), 303);
  // The API's limits on outgoing requests (§5.1), per integration and mode: the portal is no way around them.
  const limiter = (name: string, { max, timeWindow }: { max: number; timeWindow: number }) => {
    const limit = app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `portal-${name}:{${sessionOf(request).integrationId}}:${modeOf(request)}` });
    return async (request: FastifyRequest): Promise<string | null> => {
      const result = await limit(request);
      return !result.isAllowed && result.isExceeded ? `At most ${max} a minute: try again in ${result.ttlInSeconds} s.` : null;
    };
  };
  const testLimit = limiter('webhook-test', RATE_LIMITS.webhookTest);
  const retryLimit = limiter('webhook-retry', RATE_LIMITS.webhookRetry);

  app.get(PATH, { preHandler: requireSession }, async (request, reply) => render(request, reply, modeOf(request)));

  const post = { preHandler: [requireSession, app.csrfProtection] };

  app.post<{ Body: { url?: string } }>(`${PATH}/url`, post, async (request, reply) => {
    const mode = modeOf(request);
    const session = sessionOf(request);
    const url = (request.body?.url ?? '').trim();
    const value = url === '' ? null : url;
    try {
      await app.portal.updateIntegration(session.integrationId, mode === 'live' ? { webhookUrl: value } : { testWebhookUrl: value });
    } catch (err) {
      const urlErrors = messagesOf(err);
      if (urlErrors === null) throw err;
      return render(request, reply.code(400), mode, { urlErrors, submittedUrl: url });
    }
    await app.portal.recordAction(session, mode, 'webhook.url.update', { url: value });
    return back(reply, mode);
  });

  app.post(`${PATH}/test`, post, async (request, reply) => {
    const mode = modeOf(request);
    const session = sessionOf(request);
    const { side } = await pageContext(request, reply, 'webhooks', 'Webhooks', mode);
    if (!side) return back(reply, mode);
    const limited = await testLimit(request);
    if (limited !== null) return render(request, reply.code(429), mode, { testError: limited });
    try {
      const testResult = await app.useCases.testWebhook(side.id);
      await app.portal.recordAction(session, mode, 'webhook.test', { delivered: testResult.delivered });
      return render(request, reply, mode, { testResult });
    } catch (err) {
      const messages = messagesOf(err);
      if (messages === null) throw err;
      return render(request, reply.code(409), mode, { testError: messages.join(' ') });
    }
  });

  app.post<{ Body: { overlapHours?: string } }>(`${PATH}/rotate`, post, async (request, reply) => {
    const mode = modeOf(request);
    const session = sessionOf(request);
    const overlapHours = Number(request.body?.overlapHours ?? 24);
    try {
      const rotated =
        mode === 'live'
          ? await app.portal.rotateWebhookSecret(session.integrationId, { overlapHours }).then((r) => ({ secret: r.webhookSecret, until: r.previousSecretExpiresAt }))
          : await app.portal.rotateTestWebhookSecret(session.integrationId, { overlapHours }).then((r) => ({ secret: r.testWebhookSecret, until: r.previousSecretExpiresAt }));
      await app.portal.recordAction(session, mode, 'webhook.secret.rotate', { overlapHours });
      return render(request, reply, mode, { newSecret: { secret: rotated.secret, previousSecretExpiresAt: rotated.until.toISOString() } });
    } catch (err) {
      const messages = messagesOf(err);
      if (messages === null) throw err;
      return render(request, reply.code(400), mode, { notice: messages.join(' ') });
    }
  });

  app.post<{ Params: { deliveryId: string } }>(`${PATH}/deliveries/:deliveryId/retry`, post, async (request, reply) => {
    const mode = modeOf(request);
    const session = sessionOf(request);
    const { side } = await pageContext(request, reply, 'webhooks', 'Webhooks', mode);
    const limited = await retryLimit(request);
    if (limited !== null) return render(request, reply.code(429), mode, { notice: limited });
    try {
      if (!side) throw new Error('no side');
      await app.useCases.retryDelivery(side.id, request.params.deliveryId);
    } catch (err) {
      const messages = messagesOf(err);
      if (messages === null && (err as Error).message !== 'no side') throw err;
      return render(request, reply.code(404), mode, { notice: messages?.join(' ') ?? 'No such delivery.' });
    }
    await app.portal.recordAction(session, mode, 'webhook.delivery.retry', { deliveryId: request.params.deliveryId });
    return render(request, reply.code(202), mode, { notice: 'One more attempt was queued now.' });
  });
};
