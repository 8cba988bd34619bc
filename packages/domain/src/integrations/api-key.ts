import { hash, randomBytes } from 'node:crypto';

const API_KEY_PATTERN = /^[0-9a-f]{32}$/;

/** 128 bits from the CSPRNG as 32 lowercase hex characters (docs/reference/contract.md §3). */
export const generateApiKey = (): string => randomBytes(16).toString('hex');

export const isWellFormedApiKey = (value: string): boolean => API_KEY_PATTERN.test(value);

/**
 * Keys and tokens are stored only as this SHA-256 hex digest. One-shot `hash()`: every authenticated request computes
 * it, and a Hash object per call costs three times as much.
 */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

/**
 * What may be shown of a key: its last 4 characters (16 bits of its 128), so that a developer can tell which key a
 * program holds (docs/reference/contract.md §10).
 */
export const keyEnding = (apiKey: string): string => apiKey.slice(-4);

/** A URL-safe bearer token with 256 bits of entropy (quote links). */
export const generateToken = (): string => randomBytes(32).toString('base64url');

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
