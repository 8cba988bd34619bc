// Test support that needs a database: kept apart from the index so that domain tests load no driver.
export * from './databases.js';
export * from './contracts/repositories/harness.js';
export * from './contracts/repositories/garages.contract.js';
export * from './contracts/repositories/integrations.contract.js';
export * from './contracts/repositories/leads.contract.js';
export * from './contracts/repositories/products.contract.js';
export * from './contracts/repositories/quotes.contract.js';
export * from './contracts/repositories/stock.contract.js';
export * from './contracts/repositories/unit-of-work.contract.js';
export * from './contracts/repositories/vehicles.contract.js';
export * from './mothers/postgres-webhooks.js';
export { sleep } from './clock.js';
