/**
 * Everything a user of the domain needs, one feature per entry point; each is also importable on its own
 * (`@garage/domain/booking`, `@garage/domain/webhooks`, ...). Internals (the slot model, the occupancy count, the
 * field checker) stay behind the use cases that apply them.
 */
export * from './entry-points/core.js';
export * from './entry-points/garages.js';
export * from './entry-points/integrations.js';
export * from './entry-points/catalog.js';
export * from './entry-points/booking.js';
export * from './entry-points/quotes.js';
export * from './entry-points/leads.js';
export * from './entry-points/webhooks.js';
export * from './entry-points/idempotency.js';
export * from './entry-points/admin.js';
