import type { Clock } from '../kernel/clock.port.js';
import type { QuoteReader } from './quote-repository.port.js';
import { type PublicQuote, findByToken, publicQuote } from './public-quote.js';

export const makeGetQuote =
  ({ quotes, clock }: { quotes: QuoteReader; clock: Clock }) =>
  async (token: string): Promise<PublicQuote> =>
    publicQuote(await findByToken(quotes, token), clock.now());
