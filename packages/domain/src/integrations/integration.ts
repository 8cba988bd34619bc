export interface SyncToggles {
  appointments: boolean;
  catalog: boolean;
  stock: boolean;
}

export type SyncToggle = keyof SyncToggles;

/** An encrypted secret as stored: which key encrypted it, the 96-bit nonce, the ciphertext and the GCM tag. */
export interface EncryptedSecret {
  keyId: string;
  nonce: string;
  ciphertext: string;
  tag: string;
}

export interface Integration {
  id: string;
  garageId: string;
  name: string;
  sync: SyncToggles;
  webhookUrl: string | null;
  /** The API version its requests and webhooks are served at unless a request asks for another (docs/reference/contract.md §8). */
  apiVersion: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** What an authenticated request knows about its caller. */
export interface Principal {
  integrationId: string;
  garageId: string;
  sync: SyncToggles;
  /** The version the integration is pinned to. */
  apiVersion: string;
}
