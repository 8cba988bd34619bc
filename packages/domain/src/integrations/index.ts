/** Integrations: API keys, sync toggles, authentication, and the operator's management of them. */
export type { EncryptedSecret, Integration, Principal, SyncToggle, SyncToggles } from './integration.js';
export type { IntegrationChanges, IntegrationRepository, NewIntegration, WebhookSecrets } from './integration-repository.port.js';
export { generateApiKey, generateToken, generateWebhookSecret, isWellFormedApiKey, sha256Hex } from './api-key.js';
export { cacheKeyLookup, type KeyCacheOptions, type KeyLookup } from './key-cache.js';
export { makeAuthenticate, type Authenticate } from './authenticate.js';
export {
  makeCreateIntegration,
  makeListIntegrations,
  makeRevokeIntegration,
  makeRotateKey,
  makeRotateWebhookSecret,
  makeUpdateIntegration,
  MAX_OVERLAP_HOURS,
  type UpdateIntegrationCommand,
  type CreatedIntegration,
  type CreateIntegrationCommand,
} from './manage-integrations.js';
