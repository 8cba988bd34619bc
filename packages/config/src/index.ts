/** One configuration module for every process kind, parsed once at start with TypeBox schemas. */
export { ConfigError } from './config-error.js';
export type { Environment } from './read-env.js';
export type { LogLevel } from './fields.js';
export { loadApiConfig, type Config, type TrustProxy } from './api.js';
export { loadWorkerConfig, type WorkerConfig } from './worker.js';
export { loadCliConfig, type CliConfig } from './cli.js';
