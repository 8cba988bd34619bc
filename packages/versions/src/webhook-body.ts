import { renderEvent, type StoredEvent } from './event-body.js';
import type { VersionRegistry } from './registry.js';

/**
 * The signed body of a webhook at the receiver's version (docs/reference/contract.md §5, §8), rendered through
 * `registry`: what the API's webhook test and every delivery send, the worker's included, so this lives beside the
 * registry rather than in one app. Each process passes the registry it serves, so that a test (or a process) given
 * another registry signs what that registry renders.
 */
export const webhookBodyRenderer =
  (registry: VersionRegistry) =>
  (event: StoredEvent, apiVersion: string): string =>
    JSON.stringify(renderEvent(registry, apiVersion, event));
