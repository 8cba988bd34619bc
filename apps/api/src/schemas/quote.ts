import { QUOTE_DECISION_LIMITS as L, QUOTE_STATUSES } from '@garage/domain';
import { Type } from 'typebox';
import { Currency, DateTime, Nullable } from './common.js';

export const QuoteLine = Type.Object(
  {
    label: Type.String(),
    quantity: Type.Number(),
    unitPriceCents: Type.Integer({ description: 'Unit price excluding VAT, in minor units' }),
    vatRate: Type.Number({ description: 'VAT percentage, such as 20' }),
    totalCents: Type.Integer({ description: 'Line total including VAT, in minor units' }),
  },
  { additionalProperties: false, title: 'QuoteLine' },
);

export const Quote = Type.Object(
  {
    number: Type.String({ examples: ['Q-2026-0001'] }),
    status: Type.Enum([...QUOTE_STATUSES], { description: 'A pending quote past expiresAt reads as expired' }),
    customerName: Type.String(),
    lines: Type.Array(QuoteLine),
    totalCents: Type.Integer({ description: 'Sum of the line totals, including VAT, in minor units' }),
    currency: Currency,
    expiresAt: DateTime(),
    decidedAt: Nullable(DateTime({ description: 'When it was accepted or refused' })),
  },
  { additionalProperties: false, title: 'Quote' },
);

export const QuoteToken = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'The token of the quote link; an unknown token gives 404',
});

export const AcceptBody = Type.Object(
  {
    signerName: Type.Optional(Type.String({ minLength: 1, maxLength: L.signerName })),
    comment: Type.Optional(Type.String({ maxLength: L.comment })),
  },
  { additionalProperties: false, description: 'Optional; the body may be omitted' },
);

export const RefuseBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: L.reason })) },
  { additionalProperties: false, description: 'Optional; the body may be omitted' },
);
