import { randomUUID } from 'node:crypto';
import { NotFoundError, WebhookNotConfiguredError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { IntegrationRepository } from '../integrations/integration-repository.port.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { signedWebhookRequest, signingSecrets } from './signed-request.js';
import type { RenderWebhookBody } from './webhook-event.js';
import type { WebhookSender } from './webhook-sender.port.js';

/** The event `POST /webhooks/test` sends (docs/reference/contract.md §5.1); it is not written to the outbox nor to the feed. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export interface WebhookTestResult {
  /** The `webhook-id` of the test request. */
  eventId: string;
  /** The receiver answered 2xx. */
  delivered: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

const MAX_ERROR_LENGTH = 500;

/** One signed `webhook.test` attempt to the integration's URL, now, with no retry; answered with what happened. */
export const makeTestWebhook =
  ({
    integrations,
    secrets,
    sender,
    clock,
    renderBody,
  }: {
    integrations: Pick<IntegrationRepository, 'findById' | 'getWebhookSecrets'>;
    secrets: Pick<SecretBox, 'decrypt'>;
    sender: WebhookSender;
    clock: Clock;
    renderBody: RenderWebhookBody;
  }) =>
  async (integrationId: string): Promise<WebhookTestResult> => {
    const [integration, stored] = await Promise.all([integrations.findById(integrationId), integrations.getWebhookSecrets(integrationId)]);
    if (!integration || !stored) throw new NotFoundError(`Integration ${integrationId} not found`);
    if (integration.webhookUrl === null) {
      // The operator's command differs: the sandbox's URL is set with --test-webhook-url.
      throw integration.mode === 'test'
        ? new WebhookNotConfiguredError('This sandbox has no webhook URL; an operator sets one with `integration update --test-webhook-url`')
        : new WebhookNotConfiguredError();
    }
    const sentAt = clock.now();
    const event = { id: randomUUID(), type: WEBHOOK_TEST_EVENT_TYPE, occurredAt: sentAt, livemode: integration.mode === 'live', data: { integrationId } };
    const plaintexts = signingSecrets(secrets, integrationId, stored.current, stored.previous);
    const response = await sender.send(
      signedWebhookRequest({ id: event.id, body: renderBody(event, integration.apiVersion) }, integration.webhookUrl, plaintexts, sentAt),
    );
    const responseStatus = 'statusCode' in response ? response.statusCode : null;
    return {
      eventId: event.id,
      delivered: responseStatus !== null && responseStatus >= 200 && responseStatus < 300,
      responseStatus,
      error: 'error' in response ? response.error.slice(0, MAX_ERROR_LENGTH) : null,
      durationMs: Math.max(0, clock.nowMs() - sentAt.getTime()),
    };
  };
