import { QUOTE_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '@garage/domain';
import { Type, type TSchema } from 'typebox';
import { Appointment } from './appointment.js';
import { Currency, DateTime, Nullable, Uuid } from './common.js';

/** The `data` of quote decisions and leads, as the use cases write them to the outbox (docs/reference/contract.md §5). */
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
    vehicle: Type.Object(
      { id: Uuid(), reference: Type.String(), make: Type.String(), model: Type.String(), year: Type.Integer() },
      { additionalProperties: false, description: 'The vehicle the lead is about' },
    ),
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

/**
 * Every event a receiver can get, with the body it is sent as at `version`: `previousData` gives the `data` schema of
 * an event type an API version newer than `version` changed (docs/connectors/versions.md).
 */
export const webhookPayloads = (version: string, previousData: (type: string) => TSchema | undefined): Record<string, TSchema> =>
  Object.fromEntries(
    [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE].map((type) => [
      type,
      Type.Object(
        {
          type: Type.Literal(type),
          timestamp: DateTime({ description: 'When the change happened (RFC 3339); the same on every retry' }),
          apiVersion: Type.Literal(version, { description: "The API version `data` is rendered at: the receiving integration's pin when it was sent" }),
          livemode: Type.Boolean({ description: 'False for an event of a sandbox, sent to its test webhook URL only' }),
          data: previousData(type) ?? dataOf(type),
        },
        { additionalProperties: false },
      ),
    ]),
  );
