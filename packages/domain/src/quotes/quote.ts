export const QUOTE_STATUSES = ['pending', 'accepted', 'refused', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
/** Stored statuses; `expired` is derived from `expiresAt` when read. */
export type StoredQuoteStatus = 'pending' | 'accepted' | 'refused';

export interface QuoteLine {
  label: string;
  quantity: number;
  unitPriceCents: number;
  vatRate: number;
  totalCents: number;
}

export interface Quote {
  id: string;
  garageId: string;
  number: string;
  status: StoredQuoteStatus;
  customerName: string;
  lines: QuoteLine[];
  totalCents: number;
  currency: string;
  expiresAt: Date;
  decidedAt: Date | null;
}

export type QuoteLineInput = Omit<QuoteLine, 'totalCents'>;

/** Public status: a pending quote past its expiry reads as `expired`. */
export const publicQuoteStatus = (quote: Quote, now: Date): QuoteStatus =>
  quote.status === 'pending' && quote.expiresAt.getTime() <= now.getTime() ? 'expired' : quote.status;

/** Line total including VAT, rounded half away from zero to the minor unit. */
export const lineTotalCents = (line: QuoteLineInput): number =>
  Math.round(line.quantity * line.unitPriceCents * (1 + line.vatRate / 100));
