import t from 'tap';
import { DEFAULT_BOOKING, DEFAULT_OPENING_HOURS, makeGetQuote, makeResolveFleetGarage, parseWeeklyHours, sha256Hex } from '../src/index.js';
import { makeInMemoryGarages, testClock } from '../src/testing/index.js';

const booking = { ...DEFAULT_BOOKING, weeklyHours: parseWeeklyHours(DEFAULT_OPENING_HOURS) };

t.test('the in-memory garages serve the use cases that read them', async (t) => {
  const clock = testClock('2026-12-31T23:30:00Z');
  const { garages, leads, quotes } = makeInMemoryGarages({ clock });
  const garage = await garages.create({ slug: 'north', name: 'North', currency: 'EUR', booking });
  await t.rejects(garages.create({ slug: 'north', name: 'Again', currency: 'EUR', booking }), { code: 'DUPLICATE' });

  const resolve = makeResolveFleetGarage({ authenticate: async () => Promise.reject(new Error('no key in this test')), garages });
  t.same(await resolve({ apiKey: undefined, garageSlug: 'north' }), { garageId: garage.id, principal: null });
  await t.rejects(resolve({ apiKey: undefined, garageSlug: 'south' }), { code: 'NOT_FOUND' });

  await garages.addClosure({ garageId: garage.id, from: '2027-01-10', to: '2027-01-12', reason: null });
  t.same((await garages.listClosures(garage.id, '2027-01-12', '2027-01-20')).map((c) => c.from), ['2027-01-10']);
  t.same(await garages.listClosures(garage.id, '2027-01-13', '2027-01-20'), []);

  const lead = await leads.create({ garageId: garage.id, vehicleId: garage.id, name: 'Anne', email: null, phone: null, message: null, consent: true });
  t.same(leads.all(), [lead]);

  // 23:30 UTC on 31 December is already 2027 in Paris.
  const quote = await quotes.create({ garageId: garage.id, customerName: 'Anne', lines: [], totalCents: 0, currency: 'EUR', expiresAt: new Date('2027-02-01T00:00:00Z'), tokenHash: sha256Hex('t1') });
  t.equal(quote.number, 'Q-2027-0001');
  const decision = { status: 'accepted' as const, at: clock.now(), signerName: null, comment: null, reason: null };
  t.equal(await quotes.decide(quote.id, decision), true);
  t.equal(await quotes.decide(quote.id, { ...decision, status: 'refused' }), false, 'only the first decision counts');
  const read = await makeGetQuote({ quotes, clock })('t1');
  t.match(read, { number: 'Q-2027-0001', status: 'accepted' });
});
