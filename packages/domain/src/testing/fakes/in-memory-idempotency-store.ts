import type { IdempotencyStore, StoredResponse } from '../../index.js';

interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  response: StoredResponse | null;
  lockedUntil: Date;
  expiresAt: Date;
}

export interface InMemoryIdempotencyStore extends IdempotencyStore {
  /** How many records are held, expired ones included. */
  size(): number;
}

/**
 * `IdempotencyStore` with the semantics its port documents. Every method does its work synchronously before the
 * first await, which makes each one atomic the way a single SQL statement is. Responses are stored as JSON text,
 * as a jsonb column would hold them, so a replay never shares objects with the first response.
 */
export const makeInMemoryIdempotencyStore = (): InMemoryIdempotencyStore => {
  const records = new Map<string, IdempotencyRecord>();
  const id = (scope: string, key: string) => JSON.stringify([scope, key]);

  return {
    async begin({ scope, key, requestHash, now, lockedUntil, expiresAt }) {
      const existing = records.get(id(scope, key));
      if (!existing || existing.expiresAt <= now) {
        records.set(id(scope, key), { requestHash, state: 'in_progress', response: null, lockedUntil, expiresAt });
        return { state: 'new' };
      }
      if (existing.requestHash !== requestHash) return { state: 'mismatch' };
      if (existing.state === 'completed' && existing.response) {
        return { state: 'completed', response: structuredClone(existing.response) };
      }
      if (existing.lockedUntil > now) return { state: 'in_progress' };
      existing.lockedUntil = lockedUntil;
      return { state: 'new' };
    },
    async complete(scope, key, response) {
      const existing = records.get(id(scope, key));
      if (existing?.state !== 'in_progress') return;
      existing.state = 'completed';
      existing.response = { status: response.status, body: JSON.parse(JSON.stringify(response.body ?? null)) };
    },
    async release(scope, key) {
      if (records.get(id(scope, key))?.state === 'in_progress') records.delete(id(scope, key));
    },
    size: () => records.size,
  };
};
