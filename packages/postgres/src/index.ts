export * from './db.js';
export * from './schema.js';
export * from './migrations/index.js';
export * from './errors.js';
export * from './repositories/index.js';
export * from './webhooks/index.js';
export * from './idempotency-store.js';
export * from './request-log/request-log.js';
