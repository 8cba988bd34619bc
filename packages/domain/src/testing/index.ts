export * from './in-memory-booking.js';
export * from './in-memory-idempotency-store.js';
export * from './idempotency-store.contract.js';
export * from './booking.contract.js';
export * from './in-memory-webhooks.js';
export * from './webhook-store.contract.js';
