/** Idempotency-Key: safe retries of a state-changing request, the record committed with the change. */
export type { IdempotencyBegin, IdempotencyClaim, IdempotencyStore, StoredResponse } from './idempotency-store.port.js';
export { canonicalJson, idempotencyScope, requestHash } from './request-hash.js';
export {
  checkIdempotencyKey,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  makeIdempotent,
  type IdempotentResponse,
  type RunIdempotently,
} from './run-idempotently.js';
