/** Integrations: API keys, sync toggles, authentication, and the operator's management of them. */
export type { EncryptedSecret, Integration, Principal, SyncToggle, SyncToggles } from '../entities/integration.js';
export type { IntegrationChanges, IntegrationRepository, NewIntegration, WebhookSecrets } from '../ports/integration-repository.port.js';
export { generateApiKey, generateToken, generateWebhookSecret, isWellFormedApiKey, sha256Hex } from '../services/api-key.js';
export { makeAuthenticate, type Authenticate } from '../use-cases/authenticate.js';
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
} from '../use-cases/manage-integrations.js';
