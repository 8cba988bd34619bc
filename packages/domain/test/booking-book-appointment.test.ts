import t from 'tap';
import { DomainError } from './support.js';
import { bookingWorld, GARAGE_ID, INTEGRATION_ID, OTHER_INTEGRATION_ID, outcome, PRODUCT_A, PRODUCT_B, UNKNOWN_PRODUCT } from '../src/testing/index.js';

// The world's clock: Monday 2026-11-30 09:00 in Paris (UTC+1). Hours: mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00.
// Defaults: 30-minute slots, capacity 2, 120 minutes notice, 60 days horizon.
const TUE_9 = '2026-12-01T09:00:00+01:00';

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, paths: (err.details ?? []).map((d) => d.path) };
    throw err;
  }
  throw new Error('expected a failure');
};

t.test('a valid booking returns the stored appointment, as the API shows it', async (t) => {
  const w = bookingWorld();
  const appointment = await w.book({
    startsAt: TUE_9,
    durationMinutes: 60,
    customer: { name: 'Jeanne Martin', phone: '+33612345678' },
    vehicle: { plate: 'AB-123-CD', make: 'Peugeot', model: '208', vin: 'VF3XXXXXXXXXXXXXX', mileageKm: 42000 },
    productIds: [PRODUCT_A, PRODUCT_B, PRODUCT_A],
    notes: 'Brakes squeak',
    externalRef: 'shop-order-1042',
  });
  t.match(appointment, {
    status: 'booked',
    integrationId: INTEGRATION_ID,
    durationMinutes: 60,
    customer: { name: 'Jeanne Martin', email: null, phone: '+33612345678' },
    notes: 'Brakes squeak',
    externalRef: 'shop-order-1042',
  });
  t.equal(appointment.startsAt, '2026-12-01T09:00:00+01:00', "in the garage's local offset");
  t.equal(appointment.endsAt, '2026-12-01T10:00:00+01:00');
  t.same(appointment.productIds, [PRODUCT_A, PRODUCT_B], 'a product listed twice is stored once');
  t.equal(w.store.committed().length, 1);
});

t.test('durationMinutes defaults to slotMinutes; optional fields default to null', async (t) => {
  const w = bookingWorld();
  const appointment = await w.book({ startsAt: TUE_9 });
  t.equal(appointment.durationMinutes, 30);
  t.match(appointment, { vehicle: null, notes: null, externalRef: null, productIds: [] });
});

t.test('400 VALIDATION_FAILED: malformed startsAt', async (t) => {
  const w = bookingWorld();
  for (const startsAt of [
    'tomorrow',
    '',
    '2026-12-01T09:00:00',
    '2026-12-01 09:00:00+01:00',
    '2026-12-01T09:00+01:00',
    '2026-02-30T09:00:00+01:00',
    '2026-12-01T24:00:00+01:00',
    '2026-12-01T09:00:60+01:00',
    42 as unknown as string,
  ]) {
    t.same(await failure(w.book({ startsAt })), { code: 'VALIDATION_FAILED', paths: ['/startsAt'] }, String(startsAt));
  }
});

t.test('400 VALIDATION_FAILED: startsAt in the past', async (t) => {
  const w = bookingWorld();
  t.same(await failure(w.book({ startsAt: '2026-11-30T08:30:00+01:00' })), { code: 'VALIDATION_FAILED', paths: ['/startsAt'] });
  t.same(await failure(w.book({ startsAt: '2025-12-01T09:00:00+01:00' })), { code: 'VALIDATION_FAILED', paths: ['/startsAt'] });
});

t.test('400 VALIDATION_FAILED: off the slot grid in local time, or non-zero seconds', async (t) => {
  const w = bookingWorld();
  for (const startsAt of [
    '2026-12-01T09:15:00+01:00',
    '2026-12-01T09:00:30+01:00',
    '2026-12-01T09:00:00.001+01:00',
    '2026-12-01T09:00:00.0001+01:00',
    '2026-12-01T08:00:00+00:15',
  ]) {
    t.same(await failure(w.book({ startsAt })), { code: 'VALIDATION_FAILED', paths: ['/startsAt'] }, startsAt);
  }
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T08:00:00Z' })), 'OK', '08:00Z is 09:00 in Paris');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T03:30:00-04:30' })), 'OK', 'any offset naming an instant on the grid');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T10:00:00.000+01:00' })), 'OK');
  const hourly = bookingWorld({ booking: { slotMinutes: 60 } });
  t.same(await failure(hourly.book({ startsAt: '2026-12-01T09:30:00+01:00', durationMinutes: 60 })), {
    code: 'VALIDATION_FAILED',
    paths: ['/startsAt'],
  });
});

t.test('400 VALIDATION_FAILED: durationMinutes not a positive multiple of slotMinutes, or over 480', async (t) => {
  const w = bookingWorld({ hours: 'mon-sun 00:00-23:59' });
  for (const durationMinutes of [0, -30, 45, 510, 30.5, '60' as unknown as number]) {
    t.same(
      await failure(w.book({ startsAt: TUE_9, durationMinutes })),
      { code: 'VALIDATION_FAILED', paths: ['/durationMinutes'] },
      String(durationMinutes),
    );
  }
  t.equal(await outcome(w.book({ startsAt: TUE_9, durationMinutes: 480 })), 'OK', '480 is allowed');
});

t.test('400 VALIDATION_FAILED: customer, vehicle, productIds, notes and externalRef', async (t) => {
  const w = bookingWorld();
  const cases: [Record<string, unknown>, string[]][] = [
    [{ customer: { email: 'a@b.fr' } }, ['/customer/name']],
    [{ customer: { name: '', email: 'a@b.fr' } }, ['/customer/name']],
    [{ customer: { name: '   ', email: 'a@b.fr' } }, ['/customer/name']],
    [{ customer: { name: 'x'.repeat(121), email: 'a@b.fr' } }, ['/customer/name']],
    [{ customer: { name: 'Jeanne' } }, ['/customer']],
    [{ customer: { name: 'Jeanne', email: null, phone: null } }, ['/customer']],
    [{ customer: { name: 'Jeanne', email: 'not-an-email' } }, ['/customer/email']],
    [{ customer: { name: 'Jeanne', phone: 'call me' } }, ['/customer/phone']],
    [{ customer: undefined }, ['/customer']],
    [{ vehicle: 'AB-123-CD' }, ['/vehicle']],
    [{ vehicle: { mileageKm: -1, vin: 'x'.repeat(18) } }, ['/vehicle/vin', '/vehicle/mileageKm']],
    [{ productIds: ['not-a-uuid'] }, ['/productIds/0']],
    [{ productIds: PRODUCT_A }, ['/productIds']],
    [{ notes: 'x'.repeat(2001) }, ['/notes']],
    [{ externalRef: 'x'.repeat(101) }, ['/externalRef']],
    [{ externalRef: '' }, ['/externalRef']],
  ];
  for (const [fields, paths] of cases) {
    t.same(await failure(w.book({ startsAt: TUE_9, ...fields })), { code: 'VALIDATION_FAILED', paths }, JSON.stringify(fields));
  }
  t.equal(await outcome(w.book({ startsAt: TUE_9, notes: 'x'.repeat(2000), externalRef: 'x'.repeat(100) })), 'OK');
  t.equal(await outcome(w.book({ startsAt: TUE_9, notes: '', customer: { name: 'x'.repeat(120), email: 'a@b.fr' } })), 'OK');
  t.equal(w.store.committed().length, 2, 'nothing was stored for an invalid request');
});

t.test('every field problem is reported at once', async (t) => {
  const w = bookingWorld();
  t.same(
    await failure(w.book({ startsAt: '2026-12-01T09:10:00+01:00', durationMinutes: 45, customer: { name: '' }, notes: 'x'.repeat(2001) })),
    { code: 'VALIDATION_FAILED', paths: ['/durationMinutes', '/startsAt', '/customer/name', '/customer', '/notes'] },
  );
});

t.test('400 INVALID_REFERENCE: each unknown product is named by its index', async (t) => {
  const w = bookingWorld();
  t.same(await failure(w.book({ startsAt: TUE_9, productIds: [PRODUCT_A, UNKNOWN_PRODUCT, PRODUCT_B, UNKNOWN_PRODUCT] })), {
    code: 'INVALID_REFERENCE',
    paths: ['/productIds/1', '/productIds/3'],
  });
  t.equal(w.store.committed().length, 0);
});

t.test('409 DATES_UNAVAILABLE: outside opening hours or across two opening intervals', async (t) => {
  const w = bookingWorld();
  const attempts: [string, number, string][] = [
    ['2026-12-01T07:30:00+01:00', 30, 'before opening'],
    ['2026-12-01T11:30:00+01:00', 60, 'runs past 12:00'],
    ['2026-12-01T12:00:00+01:00', 30, 'lunch break'],
    ['2026-12-01T17:30:00+01:00', 60, 'runs past closing'],
    ['2026-12-01T11:00:00+01:00', 240, 'spans the lunch break'],
    ['2026-12-06T10:00:00+01:00', 30, 'Sunday'],
    ['2026-12-05T11:30:00+01:00', 60, 'Saturday closes at 12:00'],
  ];
  for (const [startsAt, durationMinutes, why] of attempts) {
    t.equal(await outcome(w.book({ startsAt, durationMinutes })), 'DATES_UNAVAILABLE', why);
  }
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T11:30:00+01:00', durationMinutes: 30 })), 'OK', 'ends exactly at 12:00');
  t.equal(await outcome(w.book({ startsAt: '2026-12-05T09:00:00+01:00', durationMinutes: 180 })), 'OK', 'fills Saturday');
  const adjacent = bookingWorld({ hours: 'mon-fri 08:00-12:00,12:00-14:00' });
  t.equal(
    await outcome(adjacent.book({ startsAt: '2026-12-01T11:30:00+01:00', durationMinutes: 60 })),
    'DATES_UNAVAILABLE',
    'adjacent intervals are still two intervals (the contract says inside one)',
  );
});

t.test('409 DATES_UNAVAILABLE: closed dates, both ends of the closure included', async (t) => {
  const w = bookingWorld({ closures: [{ from: '2026-12-02', to: '2026-12-03' }] });
  t.equal(await outcome(w.book({ startsAt: '2026-12-02T08:00:00+01:00' })), 'DATES_UNAVAILABLE');
  t.equal(await outcome(w.book({ startsAt: '2026-12-03T17:30:00+01:00' })), 'DATES_UNAVAILABLE');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T17:30:00+01:00' })), 'OK');
  t.equal(await outcome(w.book({ startsAt: '2026-12-04T08:00:00+01:00' })), 'OK');
});

t.test('a booking reads its garage with the closures of the days around its start, in one read', async (t) => {
  const w = bookingWorld({ closures: [{ from: '2026-12-02', to: '2026-12-02' }] });
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T09:00:00+01:00' })), 'OK');
  t.equal(await outcome(w.book({ startsAt: '2026-12-02T09:00:00+01:00' })), 'DATES_UNAVAILABLE');
  t.same(w.garageReads, ['findWithClosures', 'findWithClosures']);
});

t.test('a start written with an offset far from the garage\'s still meets the closures of its own local date', async (t) => {
  // 2026-12-05T13:00+72:00 is 2026-12-02T13:00Z: 14:00 in Paris on 2 December, three days before the written date.
  const closed = bookingWorld({ closures: [{ from: '2026-12-02', to: '2026-12-02' }] });
  t.equal(await outcome(closed.book({ startsAt: '2026-12-05T13:00:00+72:00' })), 'DATES_UNAVAILABLE');
  t.same(closed.garageReads, ['findWithClosures', 'listClosures'], 'the local date was outside the days read');
  const open = bookingWorld();
  t.equal(await outcome(open.book({ startsAt: '2026-12-05T13:00:00+72:00' })), 'OK');
});

t.test('409 DATES_UNAVAILABLE: within minNoticeMinutes of now; exactly at the notice is fine', async (t) => {
  const w = bookingWorld();
  t.equal(await outcome(w.book({ startsAt: '2026-11-30T09:00:00+01:00' })), 'DATES_UNAVAILABLE', 'now itself');
  t.equal(await outcome(w.book({ startsAt: '2026-11-30T10:30:00+01:00' })), 'DATES_UNAVAILABLE');
  t.equal(await outcome(w.book({ startsAt: '2026-11-30T11:00:00+01:00' })), 'OK');
  w.clock.set('2026-11-30T08:00:01Z');
  t.equal(await outcome(w.book({ startsAt: '2026-11-30T11:00:00+01:00' })), 'DATES_UNAVAILABLE', 'a second later');
});

t.test('409 DATES_UNAVAILABLE: beyond horizonDays (local date of the start after local today + horizonDays)', async (t) => {
  const w = bookingWorld();
  t.equal(await outcome(w.book({ startsAt: '2027-01-29T17:30:00+01:00' })), 'OK', '30 Nov + 60 days = 29 Jan, last hour');
  t.equal(await outcome(w.book({ startsAt: '2027-01-30T09:00:00+01:00' })), 'DATES_UNAVAILABLE', 'Saturday 30 Jan');
  t.equal(await outcome(w.book({ startsAt: '2030-01-07T09:00:00+01:00' })), 'DATES_UNAVAILABLE');
});

t.test('400s are reported before 409s, INVALID_REFERENCE before DATES_UNAVAILABLE', async (t) => {
  const w = bookingWorld({ closures: [{ from: '2026-12-01', to: '2026-12-01' }] });
  t.equal(await outcome(w.book({ startsAt: TUE_9, productIds: [UNKNOWN_PRODUCT] })), 'INVALID_REFERENCE');
  t.equal(await outcome(w.book({ startsAt: TUE_9, customer: { name: 'x' } })), 'VALIDATION_FAILED');
  t.equal(await outcome(w.book({ startsAt: TUE_9 })), 'DATES_UNAVAILABLE');
});

t.test('404 NOT_FOUND when the principal garage does not exist', async (t) => {
  const w = bookingWorld();
  t.equal(
    await outcome(
      w.book({ startsAt: TUE_9, principal: { integrationId: INTEGRATION_ID, garageId: '99999999-9999-4999-8999-999999999999' } }),
    ),
    'NOT_FOUND',
  );
});

t.test('409 SLOT_FULL: capacity counts every appointment overlapping each covered slot', async (t) => {
  const w = bookingWorld();
  t.equal(await outcome(w.book({ startsAt: TUE_9, durationMinutes: 60 })), 'OK', '09:00-10:00 occupies 09:00 and 09:30');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T09:30:00+01:00' })), 'OK', '09:30 now holds two');
  t.equal(await outcome(w.book({ startsAt: TUE_9 })), 'OK', '09:00 now holds two');
  t.equal(await outcome(w.book({ startsAt: TUE_9 })), 'SLOT_FULL');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T09:30:00+01:00' })), 'SLOT_FULL');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T08:30:00+01:00', durationMinutes: 60 })), 'SLOT_FULL', 'covers the full 09:00');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T09:30:00+01:00', durationMinutes: 90 })), 'SLOT_FULL');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T08:30:00+01:00' })), 'OK', 'ends where the full slot begins');
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T10:00:00+01:00', durationMinutes: 120 })), 'OK', 'starts where it ends');
  t.equal(w.store.committed().length, 5);
});

t.test('appointments of other integrations of the garage count towards capacity', async (t) => {
  const w = bookingWorld({ booking: { capacity: 1 } });
  await w.book({ startsAt: TUE_9, principal: { integrationId: OTHER_INTEGRATION_ID, garageId: GARAGE_ID } });
  t.equal(await outcome(w.book({ startsAt: TUE_9 })), 'SLOT_FULL');
});

t.test('409 DUPLICATE: an externalRef already used by the same integration', async (t) => {
  const w = bookingWorld();
  await w.book({ startsAt: TUE_9, externalRef: 'order-1' });
  t.equal(await outcome(w.book({ startsAt: '2026-12-01T14:00:00+01:00', externalRef: 'order-1' })), 'DUPLICATE');
  t.equal(
    await outcome(
      w.book({
        startsAt: '2026-12-01T14:00:00+01:00',
        externalRef: 'order-1',
        principal: { integrationId: OTHER_INTEGRATION_ID, garageId: GARAGE_ID },
      }),
    ),
    'OK',
  );
});

t.test('N simultaneous requests for one slot of capacity C give exactly C successes', async (t) => {
  for (const capacity of [1, 2, 5]) {
    const w = bookingWorld({ booking: { capacity } });
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => outcome(w.book({ startsAt: TUE_9, durationMinutes: 60 }))));
    t.equal(outcomes.filter((o) => o === 'OK').length, capacity, `capacity ${capacity}`);
    t.equal(outcomes.filter((o) => o === 'SLOT_FULL').length, 12 - capacity);
  }
  const mixed = bookingWorld();
  const overlapping = await Promise.all(
    ['08:30', '09:00', '09:30', '08:30', '09:00', '09:30', '09:00'].map((hhmm) =>
      outcome(mixed.book({ startsAt: `2026-12-01T${hhmm}:00+01:00`, durationMinutes: 60 })),
    ),
  );
  const committed = mixed.store.committed();
  const busiest = Math.max(
    ...['08:30', '09:00', '09:30', '10:00'].map((hhmm) => {
      const slot = Date.parse(`2026-12-01T${hhmm}:00+01:00`);
      return committed.filter((a) => a.startsAt.getTime() <= slot && a.endsAt.getTime() > slot).length;
    }),
  );
  t.ok(busiest <= 2, `overlapping durations never overbook (${overlapping.join(' ')})`);
});

t.test('the concurrency test has teeth: without the booking lock the same requests overbook', async (t) => {
  const w = bookingWorld({ withoutLock: true });
  const outcomes = await Promise.all(Array.from({ length: 12 }, () => outcome(w.book({ startsAt: TUE_9 }))));
  t.ok(outcomes.filter((o) => o === 'OK').length > 2);
});

t.test('the appointment.created event commits with the appointment; if writing it fails, nothing is stored', async (t) => {
  const ok = bookingWorld();
  const appointment = await ok.book({ startsAt: TUE_9 });
  t.same(ok.store.events().map((e) => [e.type, e.data.id]), [['appointment.created', appointment.id]]);

  const failing = bookingWorld({
    outbox: {
      enqueue: async () => {
        throw new Error('outbox unavailable');
      },
    },
  });
  await t.rejects(failing.book({ startsAt: TUE_9 }), { message: 'outbox unavailable' });
  t.equal(failing.store.committed().length, 0);
  t.same(failing.store.events(), []);
});
