import type { SyncToggle, SyncToggles } from './integration.js';
import type { Checker } from '../kernel/validation.js';
import { webhookUrlProblem, type DestinationPolicy } from '../webhooks/webhook-destination.js';

/** A webhook URL given (null removes it): an http(s) URL without credentials whose address literal, if any, is allowed. */
export const checkWebhookUrl = (
  check: Checker,
  url: string | null | undefined,
  destinations: DestinationPolicy,
  path = '/webhookUrl',
): void => {
  if (url === undefined || url === null) return;
  const problem = webhookUrlProblem(url, destinations);
  if (problem !== null) check.fail(path, problem);
};

export const togglesOf = (sync: readonly SyncToggle[]): SyncToggles => ({
  appointments: sync.includes('appointments'),
  catalog: sync.includes('catalog'),
  stock: sync.includes('stock'),
});
