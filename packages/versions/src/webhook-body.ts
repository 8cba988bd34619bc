import { API_VERSIONS } from './api-versions.js';
import { renderEvent, type StoredEvent } from './event-body.js';

/**
 * The signed body of a webhook at the receiver's version (docs/reference/contract.md §5, §8): what the API's webhook test and every
 * delivery send, the worker's included, so this lives beside the registry rather than in one app.
 */
export const renderWebhookBody = (event: StoredEvent, apiVersion: string): string => JSON.stringify(renderEvent(API_VERSIONS, apiVersion, event));
