import { publicQuoteStatus } from './quote.js';
import type { Clock } from '../shared/clock.port.js';
import type { QuoteReader } from './quote-repository.port.js';
import { type PublicQuote, findByToken } from './public-quote.js';

export const makeGetQuote =
  ({ quotes, clock }: { quotes: QuoteReader; clock: Clock }) =>
  async (token: string): Promise<PublicQuote> => {
    const quote = await findByToken(quotes, token);
    return {
      number: quote.number,
      status: publicQuoteStatus(quote, clock.now()),
      customerName: quote.customerName,
      lines: quote.lines,
      totalCents: quote.totalCents,
      currency: quote.currency,
      expiresAt: quote.expiresAt,
      decidedAt: quote.decidedAt,
    };
  };
