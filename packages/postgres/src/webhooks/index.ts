export * from './outbox.js';
export * from './delivery-queue.js';
