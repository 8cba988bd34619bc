/**
 * What the API and the CLI wire alike, so that neither imports the other: the storage they open (Postgres, or the
 * embedded PGlite with its key file and private directory) and the operator's use cases over it.
 */
export { makeAdminUseCases, type AdminOptions, type AdminUseCases } from './admin-use-cases.js';
export { openStorage, type Storage, type StorageOptions } from './storage.js';
export { makeDataRetention, RETENTION_INTERVAL_MS, startRetentionJob, type DataRetention } from './data-retention.js';
