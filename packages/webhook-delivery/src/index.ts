export type { DeliveryLogger } from './logger.js';
export { DestinationNotAllowedError, makeHttpSender, type HttpSenderOptions, type Resolver } from './http-sender.js';
export { webhookErrorOf, type WebhookError } from './webhook-error.js';
export { startDeliveryEngine, type DeliveryEngine, type DeliveryEngineOptions } from './delivery-engine.js';
export { registerWebhookMetrics, type WebhookMetrics } from './metrics.js';
export { makeWebhookDelivery, type WebhookDelivery, type WebhookDeliveryOptions } from './webhook-delivery.js';
