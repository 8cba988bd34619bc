export * from './connection.js';
export * from './health.js';
export type { Redis } from 'ioredis';
