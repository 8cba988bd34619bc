export * from './signature.js';
export * from './retry-schedule.js';
export * from './webhook-event.js';
export * from './webhook-sender.port.js';
export * from './delivery-queue.port.js';
export * from './deliver-due-webhooks.js';
export * from './replay-webhook.js';
export * from './list-webhook-deliveries.js';
