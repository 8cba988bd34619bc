export * from './outbox.js';
export * from './delivery-queue.js';
export * from './secret-store.js';
export * from './webhook-feed.js';
export { OUTBOX_CHANNEL } from './outbox-channel.js';
