import type { Quote, QuoteLine } from './quote.js';

export interface NewQuote {
  garageId: string;
  customerName: string;
  lines: QuoteLine[];
  totalCents: number;
  currency: string;
  expiresAt: Date;
  tokenHash: string;
}

export interface QuoteDecision {
  status: 'accepted' | 'refused';
  at: Date;
  signerName: string | null;
  comment: string | null;
  reason: string | null;
}

export interface QuoteReader {
  findByTokenHash(tokenHash: string): Promise<Quote | null>;
}

/** Reads and writes; only a unit of work hands it out, because numbering locks the garage's quotes. */
export interface QuoteRepository extends QuoteReader {
  /** Allocates the garage's next quote number, under a lock held until the transaction ends. */
  create(input: NewQuote): Promise<Quote>;
  /**
   * Records the decision only if the quote is still pending and not expired at `decision.at`;
   * returns whether this call made the decision (exactly one concurrent caller gets true).
   */
  decide(quoteId: string, decision: QuoteDecision): Promise<boolean>;
}
