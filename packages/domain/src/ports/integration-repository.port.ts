import type { EncryptedSecret, Integration, SyncToggle, SyncToggles } from '../entities/integration.js';

export interface NewIntegration {
  garageId: string;
  name: string;
  sync: SyncToggles;
  webhookUrl: string | null;
  apiKeyHash: string;
  webhookSecret: EncryptedSecret;
}

export interface IntegrationRepository {
  create(input: NewIntegration): Promise<Integration>;
  findById(id: string): Promise<Integration | null>;
  /** The integration holding this key hash, revoked ones excluded. */
  findActiveByKeyHash(apiKeyHash: string): Promise<Integration | null>;
  listByGarage(garageId: string): Promise<Integration[]>;
  /** Null when no such integration exists. Revoking twice keeps the first revocation time. */
  revoke(id: string, at: Date): Promise<Integration | null>;
  /** Null when no such integration exists or it is revoked. */
  rotateKey(id: string, apiKeyHash: string, at: Date): Promise<Integration | null>;
  touchLastUsed(id: string, at: Date): Promise<void>;
  getWebhookSecret(id: string): Promise<EncryptedSecret | null>;
  /** Integrations of the garage with a webhook URL, not revoked, optionally only those with a toggle on. */
  listWebhookTargets(garageId: string, requireToggle?: SyncToggle): Promise<Integration[]>;
}
