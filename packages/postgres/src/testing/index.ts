// Test support that needs a database: kept apart from the index so that domain tests load no driver.
export * from './databases.js';
export * from './contracts/harness.js';
export * from './contracts/garages.contract.js';
export * from './contracts/integrations.contract.js';
export * from './contracts/leads.contract.js';
export * from './contracts/list-items.contract.js';
export * from './contracts/products.contract.js';
export * from './contracts/quotes.contract.js';
export * from './contracts/stock.contract.js';
export * from './contracts/unit-of-work.contract.js';
export * from './contracts/vehicles.contract.js';
export * from './postgres-webhooks.js';
