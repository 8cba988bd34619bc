import type { AddressInfo } from 'node:net';
import t from 'tap';
import { at, bookingBody, buildBookingApp, createBookingGarage } from './appointments-support.js';

interface Answer {
  status: number;
  body: { appointmentId?: string; code?: string; data?: { startsAt: string; endsAt: string; remaining: number }[] };
  replayed: string | null;
}

// Real sockets, real Postgres: simultaneous requests meet in the database exactly as they would in production.
t.test('booking over real HTTP never overbooks (docs/reference/contract.md §4.1)', async (t) => {
  const { app, admin, db } = await buildBookingApp(t);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/public/appointments`;
  const garage = await createBookingGarage(admin);

  const call = async (url: string, init: RequestInit = {}, key = garage.shop.key): Promise<Answer> => {
    const res = await fetch(url, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers } });
    return { status: res.status, body: (await res.json()) as Answer['body'], replayed: res.headers.get('idempotent-replayed') };
  };
  const post = (body: unknown, headers: Record<string, string> = {}, key?: string) =>
    call(base, { method: 'POST', body: JSON.stringify(body), headers }, key);
  const availability = async (query: string) => {
    const res = await call(`${base}/availability?${query}`);
    if (res.status !== 200) throw new Error(`availability answered ${res.status}`);
    return res.body.data ?? [];
  };
  const outcomes = (answers: Answer[]) => answers.map((a) => (a.status === 201 ? '201' : `${a.status} ${a.body.code}`)).sort();
  const countAt = async (date: string) => {
    const from = new Date(at(date, '00:00'));
    const rows = await db.handle.db
      .selectFrom('appointments')
      .select(['starts_at', 'ends_at'])
      .where('garage_id', '=', garage.id)
      .where('starts_at', '>=', from)
      .where('starts_at', '<', new Date(from.getTime() + 86_400_000))
      .execute();
    return rows;
  };

  t.test('24 simultaneous requests for one slot of capacity 2: exactly 2 succeed, 22 get SLOT_FULL', async (t) => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => post(bookingBody(at('2026-12-01', '09:00'), { externalRef: `race-${i}` }), {}, i % 2 ? garage.partner.key : garage.shop.key)),
    );
    t.same(outcomes(answers), ['201', '201', ...Array(22).fill('409 SLOT_FULL')]);
    t.equal((await countAt('2026-12-01')).length, 2);
  });

  t.test('overlapping durations compete for the slots they share', async (t) => {
    // Ten 60-minute bookings at 10:00 (slots 10:00 and 10:30) against ten 30-minute ones at 10:30: the 10:30 slot
    // holds two, so exactly two of the twenty succeed, in whichever mix the race gives.
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => post(bookingBody(at('2026-12-02', '10:00'), { durationMinutes: 60 }))),
      ...Array.from({ length: 10 }, () => post(bookingBody(at('2026-12-02', '10:30')))),
    ]);
    t.same(outcomes(answers), ['201', '201', ...Array(18).fill('409 SLOT_FULL')]);
    const booked = await countAt('2026-12-02');
    t.equal(booked.length, 2);
    const slot1030 = new Date(at('2026-12-02', '10:30'));
    t.equal(booked.filter((b) => b.starts_at <= slot1030 && b.ends_at > slot1030).length, 2, 'the shared slot is exactly full');
    const listed = (await availability('from=2026-12-02&to=2026-12-02')).map((s) => s.startsAt);
    t.notOk(listed.includes(at('2026-12-02', '10:30')));
  });

  t.test('every start availability lists can be booked, until it lists none', async (t) => {
    // A fresh day, 08:00-18:00: 20 slots of capacity 2, filled with 60-minute bookings. Each round books every
    // listed start that does not overlap one booked earlier in the same round (those would compete with ourselves),
    // and every such booking must succeed.
    let booked = 0;
    for (let round = 0; round < 5; round += 1) {
      const listed = await availability('from=2026-12-03&to=2026-12-03&durationMinutes=60');
      if (listed.length === 0) break;
      let freeFrom = 0;
      for (const slot of listed) {
        if (Date.parse(slot.startsAt) < freeFrom) continue;
        const res = await post(bookingBody(slot.startsAt, { durationMinutes: 60 }));
        t.equal(res.status, 201, `${slot.startsAt} was listed with ${slot.remaining} left, so it books`);
        freeFrom = Date.parse(slot.endsAt);
        booked += 1;
      }
    }
    t.same(await availability('from=2026-12-03&to=2026-12-03&durationMinutes=60'), []);
    t.same(await availability('from=2026-12-03&to=2026-12-03'), [], 'no 30-minute start is left either');
    t.equal(booked, 20, 'capacity 2 × ten hours');
    const rows = await countAt('2026-12-03');
    for (let m = 8 * 60; m < 18 * 60; m += 30) {
      const slot = new Date(new Date(at('2026-12-03', '00:00')).getTime() + m * 60_000);
      t.equal(rows.filter((r) => r.starts_at <= slot && r.ends_at > slot).length, 2, `the slot at ${m / 60} h is exactly full`);
    }
  });

  t.test('a race of identical requests with one Idempotency-Key books once', async (t) => {
    for (let i = 0; i < 5; i += 1) {
      const body = bookingBody(at('2026-12-04', `${String(9 + i).padStart(2, '0')}:00`), { externalRef: `idem-race-${i}` });
      const answers = await Promise.all([0, 1].map(() => post(body, { 'idempotency-key': `race-key-${i}` })));
      for (const a of answers) {
        t.ok(
          a.status === 201 || (a.status === 409 && a.body.code === 'IDEMPOTENCY_IN_PROGRESS'),
          `201 or IDEMPOTENCY_IN_PROGRESS, got ${a.status} ${a.body.code ?? ''}`,
        );
      }
      const created = answers.filter((a) => a.status === 201);
      t.ok(created.length >= 1);
      t.equal(new Set(created.map((a) => a.body.appointmentId)).size, 1, 'a second 201 is the replay of the first');
      const rows = await db.handle.db.selectFrom('appointments').select('id').where('external_ref', '=', `idem-race-${i}`).execute();
      t.same(rows.map((r) => r.id), [created[0]?.body.appointmentId]);
    }
  });
});
