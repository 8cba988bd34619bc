import {
  idempotencyClaim,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  type Clock,
  type IdempotencyStore,
  type StoredResponse,
  type UnitOfWork,
  type Work,
} from '@garage/domain';
import { toHttpError } from '../plugins/error-handler.js';

/**
 * Which responses a retry with the same key receives again. 429 and 5xx say "try again": storing them would make
 * every retry fail the same way, so their key is released and a retry runs anew.
 */
const isFinalResponse = (response: StoredResponse): boolean => response.status !== 429 && response.status < 500;

export interface IdempotentResponse extends StoredResponse {
  /** True when this is the stored response of an earlier request (header `Idempotent-Replayed: true`). */
  replayed: boolean;
}

/** A request under an `Idempotency-Key`: where the key lives, the key, and what identifies the request. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  requestHash: string;
}

export type RunIdempotently = (request: IdempotentRequest, work: Work<StoredResponse>) => Promise<IdempotentResponse>;

/**
 * The Idempotency-Key rules of docs/reference/contract.md §4.1 around the work of one request, a use case's work
 * that answers with its response:
 * - first use: opens one transaction, runs `work` in it and stores its response in it, so the record commits with
 *   the change it records: a process that dies at any moment leaves either both or neither. A response that says
 *   "try again" (`isFinalResponse`) is not stored; its key is released for a retry;
 * - `work` throws: the error handler's own mapping says which response the error becomes; a final one is stored
 *   and the error rethrown so that the error handler answers as usual; any other releases the key and is rethrown;
 * - same key and same request later: the stored response, `replayed: true`, without running;
 * - same key, different request: 422 IDEMPOTENCY_KEY_REUSED; while the first is in flight: 409
 *   IDEMPOTENCY_IN_PROGRESS.
 * Store failures propagate (503); the key then stays claimed until its lease runs out.
 */
export const makeRunIdempotently =
  ({ store, uow, clock }: { store: IdempotencyStore; uow: UnitOfWork; clock: Clock }): RunIdempotently =>
  async (request, work) => {
    const { scope, key } = request;
    const begun = await store.begin(idempotencyClaim(request, clock.now()));
    if (begun.state === 'mismatch') throw new IdempotencyKeyReusedError();
    if (begun.state === 'in_progress') throw new IdempotencyInProgressError();
    if (begun.state === 'completed') return { ...begun.response, replayed: true };

    let response: StoredResponse;
    try {
      response = await uow.run(async (tx) => {
        const result = await work(tx);
        if (isFinalResponse(result)) await tx.idempotencyRecords.complete(scope, key, result);
        return result;
      });
    } catch (err) {
      const mapped = toHttpError(err);
      if (isFinalResponse(mapped)) await store.complete(scope, key, mapped);
      else await releaseQuietly(store, scope, key);
      throw err;
    }
    if (!isFinalResponse(response)) await store.release(scope, key);
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
