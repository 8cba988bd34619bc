export type { DeliveryLogger } from './logger.js';
export { makeHttpSender } from './http-sender.js';
export { startDeliveryLoop, type DeliveryLoop, type DeliveryLoopOptions } from './delivery-loop.js';
export { makeWebhookDelivery, type WebhookDelivery, type WebhookDeliveryOptions } from './webhook-delivery.js';
