/**
 * Everything a user of the domain needs, one feature per entry point; each is also importable on its own
 * (`@garage/domain/booking`, `@garage/domain/webhooks`, ...). Internals (the slot model, the occupancy count, the
 * field checker) stay behind the use cases that apply them.
 */
export * from './shared/index.js';
export * from './garages/index.js';
export * from './integrations/index.js';
export * from './catalog/index.js';
export * from './booking/index.js';
export * from './quotes/index.js';
export * from './leads/index.js';
export * from './webhooks/index.js';
export * from './idempotency/index.js';
export * from './admin/index.js';
