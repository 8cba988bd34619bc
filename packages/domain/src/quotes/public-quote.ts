import type { Quote, QuoteStatus } from './quote.js';
import { NotFoundError } from '../shared/errors.js';
import type { QuoteReader } from './quote-repository.port.js';
import { sha256Hex } from '../integrations/api-key.js';

/** What the customer's quote page sees: no internal ids, and `expired` derived from `expiresAt`. */
export type PublicQuote = Omit<Quote, 'id' | 'garageId' | 'status'> & { status: QuoteStatus };

export const findByToken = async (quotes: QuoteReader, token: string): Promise<Quote> => {
  const quote = await quotes.findByTokenHash(sha256Hex(token));
  if (!quote) throw new NotFoundError('Quote not found');
  return quote;
};
