import { GARAGE_STATUSES } from '@garage/domain';
import { Type } from 'typebox';
import { DateTime } from './common.js';
import { Quote } from './quote.js';

/** Bodies and answers of the sandbox's test helpers (docs/reference/contract.md §9). */

export const TestQuoteBody = Type.Object(
  {
    customer: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 120 }),
        email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'Accepted as a garage would be given it; the quote shows the name' })),
      },
      { additionalProperties: false },
    ),
    lines: Type.Array(
      Type.Object(
        {
          label: Type.String({ minLength: 1, maxLength: 255 }),
          quantity: Type.Number({ minimum: 0, maximum: 1_000_000 }),
          unitPriceCents: Type.Integer({ minimum: -100_000_000_000, maximum: 100_000_000_000, description: 'Unit price excluding VAT, in minor units' }),
          vatRate: Type.Number({ minimum: 0, maximum: 100, description: 'VAT percentage, such as 20' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
    expiresAt: Type.Optional(DateTime({ description: 'Omitted: 30 days from now. A past time makes an expired quote' })),
  },
  { additionalProperties: false },
);

export const TestQuote = Type.Object(
  {
    ...Quote.properties,
    token: Type.String({ description: 'The token of the quote link: get, accept or refuse it at /api/public/quotes/{token}' }),
  },
  { additionalProperties: false, title: 'TestQuote' },
);

export const TestAppointmentStatusBody = Type.Object(
  {
    status: Type.Enum([...GARAGE_STATUSES], { description: 'What the garage would set' }),
    reason: Type.Optional(Type.String({ maxLength: 500, description: 'For a cancellation only' })),
  },
  { additionalProperties: false },
);

export const SandboxReset = Type.Object(
  { resetAt: DateTime({ description: 'When the sandbox was emptied and copied again' }) },
  { additionalProperties: false, title: 'SandboxReset' },
);
