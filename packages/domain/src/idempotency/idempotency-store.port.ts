/** A response as the transport sends it; `body` is JSON-serialisable. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

/** A request's claim on `(scope, key)`. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** Identifies the request (see `requestHash`); a different hash under the same key is a reuse. */
  requestHash: string;
  now: Date;
  /** Until when an unfinished claim shields its request; after that a retry may take the claim over. */
  lockedUntil: Date;
  /** When the record is forgotten (24 hours after the first use). */
  expiresAt: Date;
}

export type IdempotencyBegin =
  | { state: 'new' }
  | { state: 'in_progress' }
  | { state: 'completed'; response: StoredResponse }
  | { state: 'mismatch' };

/**
 * Idempotency-Key records (docs/reference/contract.md §4.1), one per `(scope, key)`. A record whose `expiresAt <= now` counts as
 * absent everywhere, whether or not the retention job has deleted it yet (docs/operators/retention.md).
 */
export interface IdempotencyStore {
  /**
   * Atomically, against concurrent `begin`s of the same `(scope, key)` (exactly one of them gets `new`):
   * - no live record: stores `{requestHash, in_progress, lockedUntil, expiresAt}` and answers `new`;
   * - a live record with another `requestHash`: `mismatch` (whatever its state; nothing changes);
   * - `in_progress` with `lockedUntil > now`: `in_progress`;
   * - `in_progress` with `lockedUntil <= now` (its request died without completing or releasing): takes it over,
   *   setting `lockedUntil` (keeping `expiresAt`), and answers `new`;
   * - `completed`: `completed` with the stored status and body, byte-for-byte the JSON that was stored.
   */
  begin(claim: IdempotencyClaim): Promise<IdempotencyBegin>;
  /** Marks an `in_progress` record `completed` with `response`. No effect on a missing or completed record. */
  complete(scope: string, key: string, response: StoredResponse): Promise<void>;
  /** Deletes an `in_progress` record so that a retry runs again. Never deletes a `completed` one. */
  release(scope: string, key: string): Promise<void>;
}
