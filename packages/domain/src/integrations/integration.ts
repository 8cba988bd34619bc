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

/**
 * Which side of an integration: `live` works on its garage, `test` on the integration's sandbox, a garage of its own
 * (docs/reference/contract.md §9).
 */
export type Mode = 'live' | 'test';

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
  /** `test` for the test side of an integration: its own key, webhook URL and secret, in its sandbox garage. */
  mode: Mode;
}

/** What an authenticated request knows about its caller. */
export interface Principal {
  integrationId: string;
  garageId: string;
  sync: SyncToggles;
  /** The version the integration is pinned to. */
  apiVersion: string;
  /** `test` when the key is a test key: `garageId` is then the integration's sandbox. */
  mode: Mode;
}
