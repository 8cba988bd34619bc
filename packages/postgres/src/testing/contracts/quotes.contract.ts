import { randomBytes, randomUUID } from 'node:crypto';
import type { NewQuote, QuoteDecision, Transaction } from '@garage/domain';
import { newGarage } from '@garage/domain/testing';
import type { Contract } from './harness.js';

const DAY = 86_400_000;
const lines = [{ label: 'Brake pads', quantity: 1.5, unitPriceCents: 5490, vatRate: 20, totalCents: 9882 }];

const newQuote = (repos: Transaction, garageId: string, extra: Partial<NewQuote> = {}) =>
  repos.quotes.create({
    garageId,
    customerName: 'Jeanne Martin',
    lines,
    totalCents: 9882,
    currency: 'EUR',
    expiresAt: new Date(Date.now() + 30 * DAY),
    tokenHash: randomBytes(32).toString('hex'),
    ...extra,
  });

/** The year of creation as the garage (Europe/Paris) sees it. */
const year = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', year: 'numeric' }).format(new Date());

const accept = (at = new Date()): QuoteDecision => ({
  status: 'accepted',
  at,
  signerName: 'J. Martin',
  comment: null,
  reason: null,
});
const refuse = (at = new Date()): QuoteDecision => ({ ...accept(at), status: 'refused', signerName: null, reason: 'No' });

export const quoteRepositoryContract: Contract<'repos' | 'backend'> = (t, { repos, backend }) => {
  t.test('a created quote is found by its token hash, mapped to the domain', async (t) => {
    const garage = await newGarage(repos);
    const tokenHash = randomBytes(32).toString('hex');
    const expiresAt = new Date('2030-01-31T12:00:00.250Z');
    const quote = await newQuote(repos, garage.id, { tokenHash, expiresAt });
    t.same(quote, {
      id: quote.id,
      garageId: garage.id,
      number: `Q-${year}-0001`,
      status: 'pending',
      customerName: 'Jeanne Martin',
      lines,
      totalCents: 9882,
      currency: 'EUR',
      expiresAt,
      decidedAt: null,
    });
    t.same(await repos.quotes.findByTokenHash(tokenHash), quote);
    t.equal(await repos.quotes.findByTokenHash('unknown'), null);
  });

  t.test('numbers follow each other per garage, also under concurrent creation', async (t) => {
    const garage = await newGarage(repos);
    const other = await newGarage(repos);
    const created = await Promise.all(Array.from({ length: 10 }, () => newQuote(repos, garage.id)));
    t.same(
      created.map((q) => q.number).sort(),
      Array.from({ length: 10 }, (_, i) => `Q-${year}-${String(i + 1).padStart(4, '0')}`),
    );
    t.equal((await newQuote(repos, other.id)).number, `Q-${year}-0001`);
  });

  t.test('a decision is recorded once; a second one changes nothing', async (t) => {
    const garage = await newGarage(repos);
    const tokenHash = randomBytes(32).toString('hex');
    const quote = await newQuote(repos, garage.id, { tokenHash });
    const at = new Date('2026-06-01T09:30:00.125Z');
    t.equal(await repos.quotes.decide(quote.id, accept(at)), true);
    t.equal(await repos.quotes.decide(quote.id, refuse()), false);
    t.match(await repos.quotes.findByTokenHash(tokenHash), { status: 'accepted', decidedAt: at });
  });

  t.test('an expired quote cannot be decided', async (t) => {
    const garage = await newGarage(repos);
    const expiresAt = new Date('2026-01-01T00:00:00Z');
    const quote = await newQuote(repos, garage.id, { expiresAt });
    t.equal(await repos.quotes.decide(quote.id, accept(expiresAt)), false, 'expiry is exclusive');
    t.equal(await repos.quotes.decide(quote.id, accept(new Date(expiresAt.getTime() - 1))), true);
  });

  t.test(`concurrent decisions: exactly one wins (${backend})`, async (t) => {
    const garage = await newGarage(repos);
    const quote = await newQuote(repos, garage.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        repos.quotes.decide(quote.id, i % 2 ? accept() : refuse()),
      ),
    );
    t.equal(results.filter(Boolean).length, 1);
  });

  t.test('an unknown or malformed quote id decides nothing', async (t) => {
    t.equal(await repos.quotes.decide(randomUUID(), accept()), false);
    t.equal(await repos.quotes.decide('not-a-uuid', accept()), false);
  });

  t.test('a quote of a garage that does not exist is INVALID_REFERENCE; a reused token hash is DUPLICATE', async (t) => {
    await t.rejects(newQuote(repos, randomUUID()), { code: 'INVALID_REFERENCE' });
    await t.rejects(newQuote(repos, 'not-a-uuid'), { code: 'INVALID_REFERENCE' });
    const garage = await newGarage(repos);
    const tokenHash = randomBytes(32).toString('hex');
    await newQuote(repos, garage.id, { tokenHash });
    await t.rejects(newQuote(repos, garage.id, { tokenHash }), { code: 'DUPLICATE' });
  });
};
