export * from './logger.js';
export * from './http-sender.js';
export * from './delivery-loop.js';
export * from './webhook-delivery.js';
