export { makeRetentionStore } from './retention-store.js';
export { retainedTables, retentionPoliciesOf, SANDBOX_DATA, type RetainedTable } from './retained-tables.js';
