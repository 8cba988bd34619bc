export { makeRetentionStore } from './retention-store.js';
export { retainedTables, retentionPoliciesOf, type RetainedTable } from './retained-tables.js';
