export * from './db.js';
export * from './schema.js';
export * from './migrations/index.js';
