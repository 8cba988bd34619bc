export * from './connection.js';
export * from './health.js';
export type { Redis, Cluster } from 'ioredis';
