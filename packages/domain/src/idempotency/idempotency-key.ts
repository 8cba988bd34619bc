import { ValidationError } from '../kernel/errors.js';
import type { IdempotencyClaim } from './idempotency-store.port.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Keys are kept 24 hours (docs/reference/contract.md §4.1). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long an unfinished request keeps its key. Requests answer within seconds (a lost database gives 503 within a
 * few), so a claim older than this belongs to a process that died mid-request, and a retry may run again.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export const checkIdempotencyKey = (key: unknown): key is string =>
  typeof key === 'string' && key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH;

/**
 * The claim a request makes on its `Idempotency-Key` at `now`: shielded for the lease, remembered for 24 hours.
 * A key outside 1–255 characters is VALIDATION_FAILED.
 */
export const idempotencyClaim = (
  { scope, key, requestHash }: { scope: string; key: string; requestHash: string },
  now: Date,
): IdempotencyClaim => {
  if (!checkIdempotencyKey(key)) {
    throw new ValidationError('Invalid Idempotency-Key header', [
      { path: '/headers/idempotency-key', message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` },
    ]);
  }
  return {
    scope,
    key,
    requestHash,
    now,
    lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
};
