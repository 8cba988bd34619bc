export * from './outbox.js';
export * from './delivery-queue.js';
export * from './secret-store.js';
