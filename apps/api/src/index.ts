export { buildApp, BODY_LIMIT_BYTES, type App, type AppOverrides } from './app.js';
export { loadApiConfig as loadConfig, ConfigError, type Config } from '@garage/config';
export { KEY_CACHE_TTL_MS, type ApiUseCases } from './composition/use-cases.js';
export type { DemoAccess } from './composition/demo.js';
export { STATUS_OF, toHttpError, type ErrorBody } from './plugins/error-handler.js';
export { publicScope } from './plugins/public-cors.js';
