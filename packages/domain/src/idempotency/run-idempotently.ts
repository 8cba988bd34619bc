import { IdempotencyInProgressError, IdempotencyKeyReusedError, ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import type { IdempotencyStore, StoredResponse } from './idempotency-store.port.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Keys are kept 24 hours (docs/reference/contract.md §4.1). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long an unfinished request keeps its key. Requests answer within seconds (a lost database gives 503 within a
 * few), so a claim older than this belongs to a process that died mid-request, and a retry may run again.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

export interface IdempotentResponse extends StoredResponse {
  /** True when this is the stored response of an earlier request (header `Idempotent-Replayed: true`). */
  replayed: boolean;
}

export type RunIdempotently = (
  scope: string,
  key: string,
  requestHash: string,
  run: () => Promise<StoredResponse>,
) => Promise<IdempotentResponse>;

export const checkIdempotencyKey = (key: unknown): key is string =>
  typeof key === 'string' && key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH;

/**
 * The Idempotency-Key rules of docs/reference/contract.md §4.1 around one request handler `run`:
 * - first use: runs it inside a unit of work and stores its response in that same transaction, so the record commits
 *   with the change it records (the use case's own `uow.run` joins it): a process that dies at any moment leaves
 *   either both or neither. A response the transport's `isFinal` refuses (one that says "try again") is not
 *   stored; its key is released for a retry;
 * - `run` throws: `toResponse` (the transport's own error mapping) says which response the error becomes; a final
 *   one is stored and the error rethrown so the transport answers as usual; an unmapped error (null) or a response
 *   that is not final releases the key and is rethrown;
 * - same key and same request later: the stored response, `replayed: true`, without running;
 * - same key, different request: `IdempotencyKeyReusedError` (422); while the first is in flight:
 *   `IdempotencyInProgressError` (409).
 * Store failures propagate (the transport answers 503); the key then stays claimed until the lease runs out.
 */
export const makeIdempotent =
  ({
    store,
    uow,
    clock,
    toResponse,
    isFinal,
    ttlMs = IDEMPOTENCY_TTL_MS,
    leaseMs = IDEMPOTENCY_LEASE_MS,
  }: {
    store: IdempotencyStore;
    uow: UnitOfWork;
    clock: Clock;
    toResponse: (err: unknown) => StoredResponse | null;
    /** Whether a retry should receive this response again (stored), or run anew (not stored): the transport's rule. */
    isFinal: (response: StoredResponse) => boolean;
    ttlMs?: number;
    leaseMs?: number;
  }): RunIdempotently =>
  async (scope, key, requestHash, run) => {
    if (!checkIdempotencyKey(key)) {
      throw new ValidationError('Invalid Idempotency-Key header', [
        { path: '/headers/idempotency-key', message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` },
      ]);
    }
    const now = clock.now();
    const begun = await store.begin({
      scope,
      key,
      requestHash,
      now,
      lockedUntil: new Date(now.getTime() + leaseMs),
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    if (begun.state === 'mismatch') throw new IdempotencyKeyReusedError();
    if (begun.state === 'in_progress') throw new IdempotencyInProgressError();
    if (begun.state === 'completed') return { ...begun.response, replayed: true };

    let response: StoredResponse;
    try {
      response = await uow.run(async (tx) => {
        const result = await run();
        if (isFinal(result)) await tx.idempotencyRecords.complete(scope, key, result);
        return result;
      });
    } catch (err) {
      const mapped = toResponse(err);
      if (mapped !== null && isFinal(mapped)) await store.complete(scope, key, mapped);
      else await releaseQuietly(store, scope, key);
      throw err;
    }
    if (!isFinal(response)) await store.release(scope, key);
    return { ...response, replayed: false };
  };

/** The caller must see the original error; a failed release only delays a retry until the lease runs out. */
const releaseQuietly = async (store: IdempotencyStore, scope: string, key: string) => {
  try {
    await store.release(scope, key);
  } catch {
    // Deliberately ignored: see above.
  }
};
