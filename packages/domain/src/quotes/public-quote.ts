import { publicQuoteStatus, type Quote, type QuoteStatus } from './quote.js';
import { NotFoundError } from '../kernel/errors.js';
import type { QuoteReader } from './quote-repository.port.js';
import { sha256Hex } from '../integrations/api-key.js';

/** What the customer's quote page sees: no internal ids, and `expired` derived from `expiresAt`. */
export type PublicQuote = Omit<Quote, 'id' | 'garageId' | 'status'> & { status: QuoteStatus };

export const findByToken = async (quotes: QuoteReader, token: string): Promise<Quote> => {
  const quote = await quotes.findByTokenHash(sha256Hex(token));
  if (!quote) throw new NotFoundError('Quote not found');
  return quote;
};

export const publicQuote = (quote: Quote, now: Date): PublicQuote => ({
  number: quote.number,
  status: publicQuoteStatus(quote, now),
  customerName: quote.customerName,
  lines: quote.lines,
  totalCents: quote.totalCents,
  currency: quote.currency,
  expiresAt: quote.expiresAt,
  decidedAt: quote.decidedAt,
});
