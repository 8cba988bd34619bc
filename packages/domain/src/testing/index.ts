// Test support that needs no database: fakes of the ports, their contract suites, object mothers, the test clock.
export * from './clock.js';
export * from './fakes/in-memory-booking.js';
export * from './fakes/in-memory-idempotency-store.js';
export * from './fakes/in-memory-catalog.js';
export * from './fakes/in-memory-garages.js';
export * from './fakes/in-memory-integrations.js';
export * from './contracts/idempotency-store.contract.js';
export * from './contracts/booking.contract.js';
export * from './fakes/in-memory-webhooks.js';
export * from './contracts/webhook-store.contract.js';
export * from './fakes/booking-world.js';
export * from './mothers/garages.js';
export * from './mothers/import-rows.js';
export * from './mothers/encryption-keys.js';
export * from './mothers/integrations.js';
export * from './mothers/in-memory-webhooks.js';
