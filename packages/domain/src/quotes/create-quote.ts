import { lineTotalCents, type Quote, type QuoteLineInput } from './quote.js';
import { NotFoundError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { generateToken, sha256Hex } from '../integrations/api-key.js';
import { Checker } from '../kernel/validation.js';
import { publicQuote, type PublicQuote } from './public-quote.js';

const DEFAULT_VALIDITY_DAYS = 30;

/** The garage by slug (the CLI), or by id (the sandbox's test helper, whose key names the garage). */
export type CreateQuoteCommand = ({ garageSlug: string } | { garageId: string }) & {
  customerName: string;
  lines: QuoteLineInput[];
  /** Omitted: 30 days from now. A past time is allowed and makes an expired quote. */
  expiresAt?: Date;
};

/** The token is returned once; only its hash is stored. `view` is the quote as its page shows it. */
export const makeCreateQuote =
  ({ uow, clock }: { uow: UnitOfWork; clock: Clock }) =>
  async (cmd: CreateQuoteCommand): Promise<{ quote: Quote; token: string; view: PublicQuote }> => {
    const check = new Checker();
    check.string('/customerName', cmd.customerName, { max: 120 });
    if (cmd.lines.length === 0) check.fail('/lines', 'must have at least one line');
    cmd.lines.forEach((line, i) => {
      check.string(`/lines/${i}/label`, line.label, { max: 255 });
      check.number(`/lines/${i}/quantity`, line.quantity, { min: 0, max: 1_000_000 });
      check.integer(`/lines/${i}/unitPriceCents`, line.unitPriceCents, { min: -100_000_000_000 });
      check.number(`/lines/${i}/vatRate`, line.vatRate);
    });
    if (cmd.expiresAt !== undefined && Number.isNaN(cmd.expiresAt.getTime())) check.fail('/expiresAt', 'must be a valid time');
    check.throwIfAny('Invalid quote');
    return uow.run(async (tx) => {
      const garage = 'garageId' in cmd ? await tx.garages.findById(cmd.garageId) : await tx.garages.findBySlug(cmd.garageSlug);
      if (!garage) throw new NotFoundError('garageId' in cmd ? 'Garage not found' : `Garage ${cmd.garageSlug} not found`);
      const lines = cmd.lines.map((line) => ({ ...line, totalCents: lineTotalCents(line) }));
      const token = generateToken();
      const quote = await tx.quotes.create({
        garageId: garage.id,
        customerName: cmd.customerName,
        lines,
        totalCents: lines.reduce((sum, l) => sum + l.totalCents, 0),
        currency: garage.currency,
        expiresAt: cmd.expiresAt ?? new Date(clock.nowMs() + DEFAULT_VALIDITY_DAYS * 86_400_000),
        tokenHash: sha256Hex(token),
      });
      return { quote, token, view: publicQuote(quote, clock.now()) };
    });
  };
