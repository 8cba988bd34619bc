import type { EncryptedSecret, Integration, SyncToggle, SyncToggles } from './integration.js';

export interface NewIntegration {
  /** Chosen by the caller: the webhook secret is sealed to it. */
  id: string;
  garageId: string;
  name: string;
  sync: SyncToggles;
  webhookUrl: string | null;
  /** Absent: the first API version, which integrations made before versions existed are pinned to. */
  apiVersion?: string;
  apiKeyHash: string;
  /** The key's last 4 characters (`keyEnding`), all the portal shows of it. */
  apiKeyEnding?: string;
  webhookSecret: EncryptedSecret;
  /** Makes the test side of this live integration: the row then belongs to the integration's sandbox garage. */
  liveIntegrationId?: string;
}

/** What `integration list` shows of an integration's sandbox. */
export interface SandboxSummary {
  liveIntegrationId: string;
  garageSlug: string;
  webhookUrl: string | null;
}

/** What `integration update` changes; an absent field is left as it is. */
export interface IntegrationChanges {
  name?: string;
  sync?: SyncToggles;
  /** A new URL also moves the pending deliveries to it; null cancels them (docs/reference/contract.md §5). */
  webhookUrl?: string | null;
  /** Takes effect for deliveries already queued too: they are rendered when sent. */
  apiVersion?: string;
}

/** The webhook secrets deliveries are signed with: the current one, and the one replaced while its overlap lasts. */
export interface WebhookSecrets {
  current: EncryptedSecret;
  previous: EncryptedSecret | null;
}

export interface IntegrationRepository {
  create(input: NewIntegration): Promise<Integration>;
  findById(id: string): Promise<Integration | null>;
  /** The test side of a live integration (docs/reference/contract.md §9); null when it has none yet. */
  findTestSide(liveIntegrationId: string): Promise<Integration | null>;
  /** The sandboxes of the integrations of a live garage. */
  listSandboxes(garageId: string): Promise<SandboxSummary[]>;
  /**
   * The integration holding this key hash, revoked ones excluded: its current key, or the key a rotation replaced
   * until that rotation's overlap ends (checked against the database's clock, so every instance agrees).
   */
  findActiveByKeyHash(apiKeyHash: string): Promise<Integration | null>;
  listByGarage(garageId: string): Promise<Integration[]>;
  /** How many integrations that are not revoked are pinned to each API version (versions without any are absent). */
  countByApiVersion(): Promise<Record<string, number>>;
  /**
   * Null when no such integration exists. Revoking twice keeps the first revocation time. Its pending deliveries end
   * as `cancelled` in the same statement. Revoking a live integration revokes its test side with it.
   */
  revoke(id: string, at: Date): Promise<Integration | null>;
  /**
   * Null when no such integration exists or it is revoked. The name, toggles and version pin of a live integration
   * are its test side's too, changed with it (run it in a unit of work); the webhook URL is each side's own.
   */
  update(id: string, changes: IntegrationChanges): Promise<Integration | null>;
  /**
   * Replaces the key; the old one keeps working for `overlapMs` after `at` (0: it stops at once). Null when no such
   * integration exists or it is revoked.
   */
  rotateKey(
    id: string,
    apiKeyHash: string,
    at: Date,
    overlapMs: number,
    /** The new key's last 4 characters (`keyEnding`). */
    apiKeyEnding?: string,
  ): Promise<{ integration: Integration; previousKeyExpiresAt: Date } | null>;
  /** Replaces the webhook secret; the old one keeps signing beside it for `overlapMs` after `at`. */
  rotateWebhookSecret(
    id: string,
    secret: EncryptedSecret,
    at: Date,
    overlapMs: number,
  ): Promise<{ integration: Integration; previousSecretExpiresAt: Date } | null>;
  touchLastUsed(id: string, at: Date): Promise<void>;
  getWebhookSecret(id: string): Promise<EncryptedSecret | null>;
  /** Null when no such integration exists. */
  getWebhookSecrets(id: string): Promise<WebhookSecrets | null>;
  /** Integrations of the garage with a webhook URL, not revoked, optionally only those with a toggle on. */
  listWebhookTargets(garageId: string, requireToggle?: SyncToggle): Promise<Integration[]>;
}
