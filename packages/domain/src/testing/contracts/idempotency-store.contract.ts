import assert from 'node:assert/strict';
import type { IdempotencyClaim, IdempotencyStore } from '../../index.js';

/** A named check of a port's documented semantics; run each one against a fresh store from the factory. */
export interface PortContractCase {
  name: string;
  run: () => Promise<void>;
}

const T0 = Date.parse('2030-01-07T09:00:00Z');
const HOUR = 3_600_000;

const claim = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  scope: 'integration:contract',
  key: 'key-1',
  requestHash: 'hash-a',
  now: new Date(T0),
  lockedUntil: new Date(T0 + 60_000),
  expiresAt: new Date(T0 + 24 * HOUR),
  ...over,
});

const response = { status: 201, body: { success: true, appointmentId: 'a1', nested: { list: [1, 'é', null] } } };

/**
 * The contract every `IdempotencyStore` honours (see its port). The domain tests run it against the in-memory fake;
 * the Postgres adapter's tests run it against the real table, with a store factory that starts from an empty table.
 */
export const idempotencyStoreContract = (makeStore: () => Promise<IdempotencyStore>): PortContractCase[] => [
  {
    name: 'the first begin is new; a repeat of the same request is in progress until completed',
    run: async () => {
      const store = await makeStore();
      assert.deepEqual(await store.begin(claim()), { state: 'new' });
      assert.deepEqual(await store.begin(claim({ now: new Date(T0 + 1000) })), { state: 'in_progress' });
    },
  },
  {
    name: 'a different request under a live key is a mismatch, in progress or completed',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      assert.deepEqual(await store.begin(claim({ requestHash: 'hash-b' })), { state: 'mismatch' });
      await store.complete('integration:contract', 'key-1', response);
      assert.deepEqual(await store.begin(claim({ requestHash: 'hash-b' })), { state: 'mismatch' });
    },
  },
  {
    name: 'a completed key answers with the stored status and body',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      await store.complete('integration:contract', 'key-1', response);
      assert.deepEqual(await store.begin(claim({ now: new Date(T0 + 23 * HOUR) })), { state: 'completed', response });
    },
  },
  {
    name: 'a released key starts afresh, even with another request',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      await store.release('integration:contract', 'key-1');
      assert.deepEqual(await store.begin(claim({ requestHash: 'hash-b' })), { state: 'new' });
    },
  },
  {
    name: 'release never deletes a completed record; complete never overwrites one',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      await store.complete('integration:contract', 'key-1', response);
      await store.release('integration:contract', 'key-1');
      await store.complete('integration:contract', 'key-1', { status: 500, body: { error: 'x' } });
      assert.deepEqual(await store.begin(claim()), { state: 'completed', response });
    },
  },
  {
    name: 'complete and release of an unknown key do nothing',
    run: async () => {
      const store = await makeStore();
      await store.complete('integration:contract', 'nobody', response);
      await store.release('integration:contract', 'nobody');
      assert.deepEqual(await store.begin(claim({ key: 'nobody' })), { state: 'new' });
    },
  },
  {
    name: 'an in-progress claim whose lease ran out is taken over by the same request only',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      const later = new Date(T0 + 60_000);
      assert.deepEqual(await store.begin(claim({ now: later, requestHash: 'hash-b' })), { state: 'mismatch' });
      assert.deepEqual(
        await store.begin(claim({ now: later, lockedUntil: new Date(T0 + 120_000) })),
        { state: 'new' },
      );
      assert.deepEqual(await store.begin(claim({ now: new Date(T0 + 119_000) })), { state: 'in_progress' });
    },
  },
  {
    name: 'an expired record counts as absent before it is purged',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      await store.complete('integration:contract', 'key-1', response);
      const expired = new Date(T0 + 24 * HOUR);
      assert.deepEqual(
        await store.begin(claim({ now: expired, requestHash: 'hash-b', expiresAt: new Date(T0 + 48 * HOUR) })),
        { state: 'new' },
      );
    },
  },
  {
    name: 'keys are independent across scopes',
    run: async () => {
      const store = await makeStore();
      await store.begin(claim());
      assert.deepEqual(await store.begin(claim({ scope: 'path:/api/public/fleet/lead' })), { state: 'new' });
    },
  },
  {
    name: 'of concurrent first begins exactly one is new',
    run: async () => {
      const store = await makeStore();
      const results = await Promise.all(Array.from({ length: 10 }, () => store.begin(claim())));
      assert.equal(results.filter((r) => r.state === 'new').length, 1);
      assert.equal(results.filter((r) => r.state === 'in_progress').length, 9);
    },
  },
];
