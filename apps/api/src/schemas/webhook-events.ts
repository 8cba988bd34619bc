import { QUOTE_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '@garage/domain';
import { Type, type TSchema } from 'typebox';
import { Appointment } from './appointment.js';
import { Currency, DateTime, Nullable, Uuid } from './common.js';

/** The `data` of quote decisions and leads, as the use cases write them to the outbox (CONTRACT.md §5). */
const QuoteDecision = Type.Object(
  {
    id: Uuid(),
    number: Type.String(),
    status: Type.Enum([...QUOTE_STATUSES]),
    customerName: Type.String(),
    totalCents: Type.Integer(),
    currency: Currency,
    decidedAt: DateTime(),
    signerName: Type.Optional(Nullable(Type.String({ description: 'quote.accepted only' }))),
    comment: Type.Optional(Nullable(Type.String({ description: 'quote.accepted only' }))),
    reason: Type.Optional(Nullable(Type.String({ description: 'quote.refused only' }))),
  },
  { additionalProperties: false, title: 'QuoteDecisionEvent' },
);

const LeadCreated = Type.Object(
  {
    id: Uuid(),
    vehicleId: Uuid(),
    vehicleReference: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    message: Nullable(Type.String()),
    createdAt: DateTime(),
  },
  { additionalProperties: false, title: 'LeadEvent' },
);

const WebhookTest = Type.Object({ integrationId: Uuid() }, { additionalProperties: false, title: 'WebhookTestEvent' });

const dataOf = (type: string): TSchema => {
  if (type.startsWith('appointment.')) return Appointment;
  if (type.startsWith('quote.')) return QuoteDecision;
  if (type === 'lead.created') return LeadCreated;
  return WebhookTest;
};

/** Every event a receiver can get, with the body it is sent as. */
export const WEBHOOK_PAYLOADS: Record<string, TSchema> = Object.fromEntries(
  [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].map((type) => [
    type,
    Type.Object(
      {
        type: Type.Literal(type),
        timestamp: DateTime({ description: 'When the change happened (RFC 3339); the same on every retry' }),
        data: dataOf(type),
      },
      { additionalProperties: false },
    ),
  ]),
);
