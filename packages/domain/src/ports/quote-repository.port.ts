import type { Quote, QuoteLine } from '../entities/quote.js';

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

export interface QuoteRepository {
  /** Allocates the garage's next quote number. */
  create(input: NewQuote): Promise<Quote>;
  findByTokenHash(tokenHash: string): Promise<Quote | null>;
  /**
   * Records the decision only if the quote is still pending and not expired at `decision.at`;
   * returns whether this call made the decision (exactly one concurrent caller gets true).
   */
  decide(quoteId: string, decision: QuoteDecision): Promise<boolean>;
}
