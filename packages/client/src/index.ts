export { API_VERSION } from './generated/api-version.js';
export { createClient, type ClientOptions, type GarageClient, type PostOptions } from './client.js';
export { ApiError, type ErrorBody, type ErrorCode, type ErrorDetail } from './errors.js';
export type { ListIterable, Page } from './pages.js';
export type { RetryOptions } from './retrying-fetch.js';
export { verifyWebhook, type WebhookEvent, type WebhookEventType } from './webhooks.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
