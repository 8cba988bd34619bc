import t from 'tap';
import {
  DomainError,
  idempotencyScope,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  requestHash,
  SlotFullError,
  type StoredResponse,
  type Work,
} from '@garage/domain';
import { makeInMemoryBooking, makeInMemoryIdempotencyStore, testClock } from '@garage/domain/testing';
import { makeRunIdempotently } from '../src/http/run-idempotently.js';

// The Idempotency-Key rules around a use case's work, with the error handler's own mapping of errors to responses.
const runnerOver = (run: ReturnType<typeof makeRunIdempotently>) => (scope: string, key: string, hash: string, work: Work<StoredResponse>) =>
  run({ scope, key, requestHash: hash }, work);

const world = () => {
  const clock = testClock('2026-11-30T08:00:00Z');
  const store = makeInMemoryIdempotencyStore();
  const { uow } = makeInMemoryBooking({ others: { idempotencyRecords: { complete: store.complete } } });
  const idempotent = runnerOver(makeRunIdempotently({ store, uow, clock }));
  let runs = 0;
  const created = (id: string) => async (): Promise<StoredResponse> => {
    runs += 1;
    return { status: 201, body: { success: true, appointmentId: id } };
  };
  return { clock, store, uow, idempotent, created, runs: () => runs };
};

const SCOPE = idempotencyScope.integration('22222222-2222-4222-8222-222222222222');
const HASH = requestHash({ method: 'POST', path: '/api/public/appointments', body: { startsAt: '2026-12-01T09:00:00+01:00' } });
const OTHER = requestHash({ method: 'POST', path: '/api/public/appointments', body: { startsAt: '2026-12-01T10:00:00+01:00' } });

t.test('a repeat with the same key and request replays the first response without running again', async (t) => {
  const w = world();
  t.same(await w.idempotent(SCOPE, 'k1', HASH, w.created('a1')), { status: 201, body: { success: true, appointmentId: 'a1' }, replayed: false });
  w.clock.set('2026-12-01T07:59:59Z');
  t.same(await w.idempotent(SCOPE, 'k1', HASH, w.created('a2')), { status: 201, body: { success: true, appointmentId: 'a1' }, replayed: true });
  t.equal(w.runs(), 1);
});

t.test('keys are kept 24 hours: afterwards the same key runs afresh', async (t) => {
  const w = world();
  await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'));
  w.clock.advance(IDEMPOTENCY_TTL_MS);
  t.same((await w.idempotent(SCOPE, 'k1', OTHER, w.created('a2'))).body, { success: true, appointmentId: 'a2' });
});

t.test('the same key with a different request is IDEMPOTENCY_KEY_REUSED (422)', async (t) => {
  const w = world();
  await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'));
  await t.rejects(w.idempotent(SCOPE, 'k1', OTHER, w.created('a2')), { code: 'IDEMPOTENCY_KEY_REUSED' });
  t.equal(w.runs(), 1);
});

t.test('a repeat while the first is in flight is IDEMPOTENCY_IN_PROGRESS (409); then it replays', async (t) => {
  const w = world();
  let finish: (r: StoredResponse) => void = () => {};
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const first = w.idempotent(SCOPE, 'k1', HASH, () => {
    started();
    return new Promise<StoredResponse>((resolve) => (finish = resolve));
  });
  await running;
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, w.created('a2')), { code: 'IDEMPOTENCY_IN_PROGRESS' });
  await t.rejects(w.idempotent(SCOPE, 'k1', OTHER, w.created('a2')), { code: 'IDEMPOTENCY_KEY_REUSED' });
  finish({ status: 201, body: { success: true, appointmentId: 'a1' } });
  t.equal((await first).replayed, false);
  t.equal((await w.idempotent(SCOPE, 'k1', HASH, w.created('a2'))).replayed, true);
  t.equal(w.runs(), 0, 'the repeats never ran');
});

t.test('of simultaneous first requests with one key, exactly one runs', async (t) => {
  const w = world();
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => w.idempotent(SCOPE, 'k1', HASH, w.created('a1'))));
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  t.equal(w.runs(), 1);
});

t.test('a request whose process died is retried once its lease has run out', async (t) => {
  const w = world();
  const claimed = await w.store.begin({
    scope: SCOPE,
    key: 'k1',
    requestHash: HASH,
    now: w.clock.now(),
    lockedUntil: new Date(w.clock.now().getTime() + IDEMPOTENCY_LEASE_MS),
    expiresAt: new Date(w.clock.now().getTime() + IDEMPOTENCY_TTL_MS),
  });
  t.same(claimed, { state: 'new' });
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, w.created('a1')), { code: 'IDEMPOTENCY_IN_PROGRESS' });
  w.clock.advance(IDEMPOTENCY_LEASE_MS);
  t.equal((await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'))).replayed, false);
});

t.test('5xx and 429 responses are not stored: the retry runs again', async (t) => {
  for (const status of [500, 502, 503, 429]) {
    const w = world();
    t.same(await w.idempotent(SCOPE, 'k1', HASH, async () => ({ status, body: { code: 'X' } })), { status, body: { code: 'X' }, replayed: false });
    t.same(await w.idempotent(SCOPE, 'k1', OTHER, w.created('a1')), { status: 201, body: { success: true, appointmentId: 'a1' }, replayed: false }, `${status}: even a different request may use the key`);
  }
});

t.test('an unexpected error, or one mapped to 5xx/429, is rethrown and not stored', async (t) => {
  const w = world();
  const boom = new Error('socket hang up');
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, async () => Promise.reject(boom)), boom);
  t.equal(w.store.size(), 0);
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, async () => Promise.reject(new DomainError('UNAVAILABLE', 'db down'))), { code: 'UNAVAILABLE' });
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, async () => Promise.reject(new DomainError('RATE_LIMITED', 'slow down'))), { code: 'RATE_LIMITED' });
  t.equal((await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'))).replayed, false);
});

t.test('a domain error (4xx, 409) is stored as the response: the error first, then its replay', async (t) => {
  const w = world();
  await t.rejects(w.idempotent(SCOPE, 'k1', HASH, async () => Promise.reject(new SlotFullError())), { code: 'SLOT_FULL' });
  t.same(await w.idempotent(SCOPE, 'k1', HASH, w.created('a1')), {
    status: 409,
    body: { error: new SlotFullError().message, code: 'SLOT_FULL' },
    replayed: true,
  });
  t.equal(w.runs(), 0);
});

t.test('the record commits with the change it records: when storing it fails, the change is rolled back', async (t) => {
  const clock = testClock('2026-11-30T08:00:00Z');
  const store = makeInMemoryIdempotencyStore();
  const booking = makeInMemoryBooking({
    others: {
      idempotencyRecords: {
        complete: async () => {
          throw new Error('connection lost at commit');
        },
      },
    },
  });
  const idempotent = runnerOver(makeRunIdempotently({ store, uow: booking.uow, clock }));
  const book: Work<StoredResponse> = async (tx) => {
      const appointment = await tx.appointments.create({
        garageId: 'g1',
        integrationId: 'i1',
        startsAt: new Date('2026-12-01T08:00:00Z'),
        endsAt: new Date('2026-12-01T08:30:00Z'),
        durationMinutes: 30,
        customer: { name: 'Jeanne', email: 'j@example.com', phone: null },
        vehicle: null,
        productIds: [],
        notes: null,
        externalRef: null,
      });
      return { status: 201, body: { appointmentId: appointment.id } };
    };
  await t.rejects(idempotent(SCOPE, 'k1', HASH, book), { message: 'connection lost at commit' });
  t.same(booking.committed(), [], 'the booking did not commit without its record');
  t.equal(store.size(), 0, 'and the claim was released, so a retry runs again');
});

t.test('Idempotency-Key must be 1 to 255 characters', async (t) => {
  const w = world();
  for (const key of ['', 'x'.repeat(256)]) {
    await t.rejects(w.idempotent(SCOPE, key, HASH, w.created('a1')), { code: 'VALIDATION_FAILED', details: [{ path: '/headers/idempotency-key' }] });
  }
  t.equal((await w.idempotent(SCOPE, 'x'.repeat(255), HASH, w.created('a1'))).replayed, false);
  t.equal((await w.idempotent(SCOPE, 'x', HASH, w.created('a1'))).replayed, false);
  t.equal(w.runs(), 2);
});

t.test('keys are scoped: the same key in another scope is another key', async (t) => {
  const w = world();
  await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'));
  t.equal((await w.idempotent(idempotencyScope.integration('other'), 'k1', HASH, w.created('a2'))).replayed, false);
  t.equal((await w.idempotent(idempotencyScope.path('/api/public/quotes/tok/accept'), 'k1', HASH, w.created('a3'))).replayed, false);
});

t.test('a replay is a copy: mutating one response does not change the next', async (t) => {
  const w = world();
  await w.idempotent(SCOPE, 'k1', HASH, w.created('a1'));
  const first = await w.idempotent(SCOPE, 'k1', HASH, w.created('a2'));
  (first.body as { appointmentId: string }).appointmentId = 'tampered';
  t.same((await w.idempotent(SCOPE, 'k1', HASH, w.created('a2'))).body, { success: true, appointmentId: 'a1' });
});
