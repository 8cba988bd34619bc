import t from 'tap';
import { bookingWorld, GARAGE_ID, INTEGRATION_ID, PRODUCT_A } from '../src/testing/index.js';

t.test('a booking writes its appointment.created event, with local times in the offset of each instant', async (t) => {
  // 2026-10-25: Paris leaves summer time at 03:00+02:00, so 02:00 is read twice; 09:00 that day is +01:00.
  const w = bookingWorld({
    now: '2026-10-20T08:00:00Z',
    hours: 'mon-sun 00:00-12:00',
  });
  const appointment = await w.book({
    startsAt: '2026-10-25T02:00:00+02:00',
    durationMinutes: 90,
    customer: { name: 'Jeanne Martin', phone: '+33612345678' },
    vehicle: { plate: 'AB-123-CD' },
    productIds: [PRODUCT_A],
    externalRef: 'order-1',
  });
  t.same(w.store.events(), [
    {
      garageId: GARAGE_ID,
      type: 'appointment.created',
      data: {
        id: appointment.id,
        startsAt: '2026-10-25T02:00:00+02:00',
        endsAt: '2026-10-25T02:30:00+01:00',
        durationMinutes: 90,
        customer: { name: 'Jeanne Martin', email: null, phone: '+33612345678' },
        vehicle: { plate: 'AB-123-CD', make: null, model: null, vin: null, mileageKm: null },
        productIds: [PRODUCT_A],
        notes: null,
        externalRef: 'order-1',
        status: 'booked',
        integrationId: INTEGRATION_ID,
        createdAt: '2026-10-20T10:00:00+02:00',
        updatedAt: '2026-10-20T10:00:00+02:00',
        cancelledAt: null,
        cancellationReason: null,
      },
    },
  ]);
});

t.test('a booking without a vehicle has vehicle null in its event', async (t) => {
  const w = bookingWorld();
  await w.book({ startsAt: '2026-12-01T09:00:00+01:00' });
  t.match(w.store.events()[0]?.data, { startsAt: '2026-12-01T09:00:00+01:00', endsAt: '2026-12-01T09:30:00+01:00', vehicle: null, productIds: [] });
});

t.test('a zero offset is written +00:00, on ordinary and transition days alike', async (t) => {
  const w = bookingWorld({
    now: '2026-10-20T08:00:00Z',
    hours: 'mon-sun 00:00-12:00',
    booking: { timezone: 'Europe/Lisbon' },
  });
  t.same(
    (await w.list('2026-10-25')).slice(0, 4).map((s) => s.startsAt),
    ['2026-10-25T00:00:00+01:00', '2026-10-25T00:30:00+01:00', '2026-10-25T01:00:00+01:00', '2026-10-25T01:30:00+01:00'],
  );
  t.equal((await w.list('2026-10-25'))[4]?.startsAt, '2026-10-25T01:00:00+00:00', 'the repeated hour, in winter time');
  t.equal((await w.list('2026-10-26'))[0]?.startsAt, '2026-10-26T00:00:00+00:00', 'a whole day at zero offset');
  await w.book({ startsAt: '2026-10-26T09:00:00+00:00' });
  t.equal(w.store.events()[0]?.data.startsAt, '2026-10-26T09:00:00+00:00');
});
