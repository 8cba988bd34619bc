import type { Quote, QuoteReader, QuoteRepository, StoredQuoteStatus } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database, QuoteRow, Executor } from '../schema.js';
import { lockForGarage } from './locks.js';
import { toNumber } from './numbers.js';

const COLUMNS = [
  'id', 'garage_id', 'number', 'status', 'customer_name', 'lines', 'total_cents', 'currency', 'expires_at',
  'decided_at',
] as const;

const toQuote = (row: Pick<QuoteRow, (typeof COLUMNS)[number]>): Quote => ({
  id: row.id,
  garageId: row.garage_id,
  number: row.number,
  status: row.status as StoredQuoteStatus,
  customerName: row.customer_name,
  lines: row.lines,
  totalCents: toNumber(row.total_cents),
  currency: row.currency,
  expiresAt: row.expires_at,
  decidedAt: row.decided_at,
});

/**
 * The garage's next number, `Q-<year>-<sequence>`: the year of creation in the garage's time zone, the sequence
 * restarting at 0001 each year. Callers hold the garage's quote lock, so concurrent creations never collide.
 */
const nextNumber = async (trx: Transaction<Database>, garageId: string): Promise<string> => {
  const garage = await trx
    .selectFrom('garages')
    .select(sql<string>`to_char(now() at time zone timezone, 'YYYY')`.as('year'))
    .where('id', '=', garageId)
    .executeTakeFirst();
  if (!garage) throw new InvalidReferenceError('Unknown garage');
  const prefix = `Q-${garage.year}-`;
  const { last } = await trx
    .selectFrom('quotes')
    .select(sql<number | null>`max(substr(number, ${prefix.length + 1})::int)`.as('last'))
    .where('garage_id', '=', garageId)
    .where('number', 'like', `${prefix}%`)
    .executeTakeFirstOrThrow();
  return `${prefix}${String((last ?? 0) + 1).padStart(4, '0')}`;
};

export const makeQuoteReader = (db: Executor): QuoteReader => ({
  async findByTokenHash(tokenHash) {
    const row = await db.selectFrom('quotes').select(COLUMNS).where('token_hash', '=', tokenHash).executeTakeFirst();
    return row ? toQuote(row) : null;
  },
});

/** Reads and writes, bound to a transaction only: numbering holds the garage's quote lock until commit. */
export const makeQuoteRepository = (trx: Transaction<Database>): QuoteRepository => ({
  ...makeQuoteReader(trx),

  async create(input) {
    if (!isUuid(input.garageId)) throw new InvalidReferenceError('Unknown garage');
    await lockForGarage(trx, 'quote-number', input.garageId);
    const row = await trx
      .insertInto('quotes')
      .values({
        garage_id: input.garageId,
        number: await nextNumber(trx, input.garageId),
        token_hash: input.tokenHash,
        customer_name: input.customerName,
        lines: JSON.stringify(input.lines),
        total_cents: input.totalCents,
        currency: input.currency,
        expires_at: input.expiresAt,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toQuote(row);
  },

  async decide(quoteId, decision) {
    if (!isUuid(quoteId)) return false;
    // One conditional statement: the row lock makes concurrent deciders queue, and every one after the first
    // re-checks `status = 'pending'` against the committed decision and updates nothing.
    const result = await trx
      .updateTable('quotes')
      .set({
        status: decision.status,
        decided_at: decision.at,
        signer_name: decision.signerName,
        comment: decision.comment,
        refuse_reason: decision.reason,
      })
      .where('id', '=', quoteId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', decision.at)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },
});
