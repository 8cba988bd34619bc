import t from 'tap';
import {
  makeDecideQuote,
  makeGetQuote,
  makeSubmitLead,
  NotFoundError,
  QuoteAlreadyProcessedError,
  QuoteExpiredError,
  sha256Hex,
  ValidationError,
  type Lead,
  type OutboxEvent,
  type Quote,
  type QuoteDecisionCommand,
  type QuoteRepository,
  type Transaction,
  type UnitOfWork,
  type Vehicle,
} from './support.js';
import { testClock } from '../src/testing/index.js';

const GARAGE_ID = '11111111-1111-4111-8111-111111111111';
const VEHICLE_ID = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-11-30T08:00:00Z';

/**
 * Quotes, leads and an outbox in memory. A transaction's writes are applied as they happen (these use-cases write
 * nothing that a failure would need to roll back); what matters here is which writes happen at all.
 */
const world = () => {
  const clock = testClock(NOW);
  const quotes = new Map<string, Quote & { tokenHash: string; signerName?: string | null; reason?: string | null }>();
  const leads: Lead[] = [];
  const events: OutboxEvent[] = [];
  const quoteRepository: Pick<QuoteRepository, 'findByTokenHash' | 'decide'> = {
    async findByTokenHash(tokenHash) {
      const found = [...quotes.values()].find((q) => q.tokenHash === tokenHash);
      return found ? { ...found } : null;
    },
    // The adapter's conditional update: only a pending, unexpired quote is decided, by exactly one caller.
    async decide(quoteId, decision) {
      const quote = quotes.get(quoteId);
      if (!quote || quote.status !== 'pending' || quote.expiresAt.getTime() <= decision.at.getTime()) return false;
      Object.assign(quote, { status: decision.status, decidedAt: decision.at, signerName: decision.signerName, reason: decision.reason });
      return true;
    },
  };
  const vehicles = new Map<string, Vehicle & { garageId: string }>();
  // The repositories these use-cases reach inside a transaction; they touch no other.
  const tx: Pick<Transaction, 'leads' | 'outbox'> & { quotes: typeof quoteRepository; vehicles: Pick<Transaction['vehicles'], 'findPublicById'> } = {
    quotes: quoteRepository,
    vehicles: { findPublicById: async (id) => vehicles.get(id) ?? null },
    leads: {
      async create(input) {
        const lead: Lead = { ...input, id: `lead-${leads.length + 1}`, createdAt: clock.now() };
        leads.push(lead);
        return lead;
      },
    },
    outbox: { enqueue: async (event) => void events.push(event) },
  };
  const uow: UnitOfWork = { run: (work) => work(tx as unknown as Transaction) };
  const addQuote = (token: string, expiresAt = '2026-12-30T08:00:00Z') => {
    const id = `quote-${quotes.size + 1}`;
    quotes.set(id, {
      id,
      garageId: GARAGE_ID,
      number: `Q-2026-000${quotes.size + 1}`,
      status: 'pending',
      customerName: 'Jeanne Martin',
      lines: [{ label: 'Service', quantity: 1, unitPriceCents: 10000, vatRate: 20, totalCents: 12000 }],
      totalCents: 12000,
      currency: 'EUR',
      expiresAt: new Date(expiresAt),
      decidedAt: null,
      tokenHash: sha256Hex(token),
    });
    return id;
  };
  vehicles.set(VEHICLE_ID, {
    id: VEHICLE_ID,
    garageId: GARAGE_ID,
    reference: 'V-1',
    make: 'Peugeot',
    model: '208',
    version: null,
    year: 2021,
    mileageKm: 30000,
    fuel: 'petrol',
    gearbox: 'manual',
    priceCents: 1500000,
    currency: 'EUR',
    color: null,
    description: null,
    photos: [],
    status: 'available',
    publishedAt: new Date(NOW),
    updatedAt: new Date(NOW),
  });
  const decideQuote = makeDecideQuote({ uow, clock });
  return {
    clock,
    quotes,
    leads,
    events,
    addQuote,
    getQuote: makeGetQuote({ quotes: quoteRepository, clock }),
    decideQuote: (token: string, cmd: QuoteDecisionCommand) => decideQuote({ token, ...cmd }),
    submitLead: makeSubmitLead({ uow }),
  };
};

t.test('a pending quote is accepted once, with its event; every later decision is QUOTE_ALREADY_PROCESSED', async (t) => {
  const w = world();
  const id = w.addQuote('tok');
  t.match(await w.decideQuote('tok', { decision: 'accept', signerName: 'Jeanne Martin' }), { status: 'accepted', decidedAt: new Date(NOW) }, 'the decided quote');
  t.match(await w.getQuote('tok'), { status: 'accepted', decidedAt: new Date(NOW) });
  t.equal(w.quotes.get(id)?.signerName, 'Jeanne Martin');
  t.same(w.events.map((e) => [e.type, e.garageId, e.data.id, e.data.signerName]), [['quote.accepted', GARAGE_ID, id, 'Jeanne Martin']]);
  await t.rejects(w.decideQuote('tok', { decision: 'accept' }), QuoteAlreadyProcessedError);
  await t.rejects(w.decideQuote('tok', { decision: 'refuse', reason: 'changed my mind' }), QuoteAlreadyProcessedError);
  t.equal(w.events.length, 1, 'no event for a refused decision');
});

t.test('refusing writes quote.refused with the reason', async (t) => {
  const w = world();
  const id = w.addQuote('tok');
  t.match(await w.decideQuote('tok', { decision: 'refuse', reason: 'Too expensive' }), { status: 'refused', decidedAt: new Date(NOW) });
  t.equal(w.quotes.get(id)?.reason, 'Too expensive');
  t.same(w.events.map((e) => [e.type, e.data.reason]), [['quote.refused', 'Too expensive']]);
});

t.test('of concurrent decisions exactly one wins', async (t) => {
  const w = world();
  w.addQuote('tok');
  const results = await Promise.allSettled([
    w.decideQuote('tok', { decision: 'accept' }),
    w.decideQuote('tok', { decision: 'refuse' }),
    w.decideQuote('tok', { decision: 'accept' }),
  ]);
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  t.ok(losers.every((r) => r.reason instanceof QuoteAlreadyProcessedError), 'the others: QUOTE_ALREADY_PROCESSED');
  t.equal(w.events.length, 1);
});

t.test('an expired quote reads as expired and cannot be decided', async (t) => {
  const w = world();
  w.addQuote('tok', '2026-11-30T07:59:59Z');
  t.equal((await w.getQuote('tok')).status, 'expired');
  await t.rejects(w.decideQuote('tok', { decision: 'accept' }), QuoteExpiredError);
  await t.rejects(w.decideQuote('tok', { decision: 'refuse' }), QuoteExpiredError);
  t.same(w.events, []);

  const late = world();
  late.addQuote('tok', '2026-11-30T08:00:01Z');
  t.equal((await late.getQuote('tok')).status, 'pending');
  late.clock.set('2026-11-30T08:00:01Z');
  await t.rejects(late.decideQuote('tok', { decision: 'accept' }), QuoteExpiredError, 'expired at exactly expiresAt');
});

t.test('unknown tokens and invalid decisions', async (t) => {
  const w = world();
  w.addQuote('tok');
  await t.rejects(w.getQuote('other'), NotFoundError);
  await t.rejects(w.decideQuote('other', { decision: 'accept' }), NotFoundError);
  await t.rejects(w.decideQuote('tok', { decision: 'accept', signerName: 'x'.repeat(121) }), ValidationError);
  await t.rejects(w.decideQuote('tok', { decision: 'refuse', reason: 'x'.repeat(2001) }), ValidationError);
  t.equal((await w.getQuote('tok')).status, 'pending', 'nothing decided');
});

t.test('a lead is stored against the vehicle garage with its lead.created event', async (t) => {
  const w = world();
  const lead = await w.submitLead({ vehicleId: VEHICLE_ID, name: 'Paul', phone: '+33 6 12 34 56 78', consent: true });
  t.match(lead, { garageId: GARAGE_ID, vehicleId: VEHICLE_ID, email: null, phone: '+33 6 12 34 56 78', message: null, consent: true });
  t.same(w.events.map((e) => [e.type, e.garageId, e.data.id, (e.data.vehicle as { reference: string }).reference]), [['lead.created', GARAGE_ID, lead.id, 'V-1']]);
  t.match(w.events[0]!.data.vehicle, { id: VEHICLE_ID, reference: 'V-1' }, 'the newest shape: the vehicle it is about');
  await t.rejects(w.submitLead({ vehicleId: '00000000-0000-4000-8000-000000000000', name: 'Paul', email: 'p@example.com', consent: true }), NotFoundError);
});

t.test('lead validation reports every problem at once and stores nothing', async (t) => {
  const w = world();
  const paths = async (cmd: Parameters<typeof w.submitLead>[0]) => {
    try {
      await w.submitLead(cmd);
      return null;
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      return err.details?.map((d) => d.path);
    }
  };
  t.same(await paths({ vehicleId: VEHICLE_ID, name: ' ', consent: false }), ['/name', '/email', '/consent']);
  t.same(await paths({ vehicleId: VEHICLE_ID, name: 'Paul', email: 'not-an-email', phone: 'call me', consent: true }), ['/email', '/phone']);
  t.same(await paths({ vehicleId: VEHICLE_ID, name: 'Paul', email: 'p@example.com', message: 'x'.repeat(2001), consent: true }), ['/message']);
  t.same(w.leads, []);
  t.same(w.events, []);
});
