/** Quotes: created by the garage, read, accepted or refused once by the customer holding the token. */
export {
  lineTotalCents,
  publicQuoteStatus,
  QUOTE_STATUSES,
  type Quote,
  type QuoteLine,
  type QuoteLineInput,
  type QuoteStatus,
  type StoredQuoteStatus,
} from './quote.js';
export type { NewQuote, QuoteDecision, QuoteReader, QuoteRepository } from './quote-repository.port.js';
export { makeCreateQuote, type CreateQuoteCommand } from './create-quote.js';
export {
  makeDecideQuote,
  makeGetQuote,
  QUOTE_DECISION_LIMITS,
  type PublicQuote,
  type QuoteDecisionCommand,
} from './quote-decisions.js';
