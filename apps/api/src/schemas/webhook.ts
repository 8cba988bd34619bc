import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '@garage/domain';
import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from './common.js';

/** docs/reference/contract.md §5.1. */
const EventType = Type.Enum([...WEBHOOK_EVENT_TYPES], { description: 'The event type (docs/reference/contract.md §5)' });

export const WebhookTestResult = Type.Object(
  {
    eventId: Uuid({ description: 'The `webhook-id` of the test request' }),
    delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
    responseStatus: Nullable(Type.Integer({ description: 'The HTTP status the receiver answered' })),
    error: Nullable(
      Type.String({
        description:
          'Why there was no answer, in coarse words only: `timeout`, `connection refused`, `destination not allowed` (an internal address, refused without connecting), `TLS error` or `DNS error`',
      }),
    ),
    durationMs: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'WebhookTestResult' },
);

export const Delivery = Type.Object(
  {
    id: Uuid(),
    eventId: Uuid({ description: 'The event delivered: the `webhook-id` header, and its `id` in `GET /events`' }),
    type: EventType,
    status: Type.Enum([...DELIVERY_STATUSES], {
      description: 'pending until it ends: succeeded (2xx), failed (retries exhausted), gone (410), cancelled (integration revoked or webhook URL removed)',
    }),
    attemptCount: Type.Integer({ minimum: 0 }),
    lastAttemptAt: Nullable(DateTime()),
    lastResponseStatus: Nullable(Type.Integer({ description: 'The HTTP status of the last attempt; null when it got no answer or none was made' })),
    nextAttemptAt: Nullable(DateTime({ description: 'When the next attempt is due; null once the delivery has ended' })),
    createdAt: DateTime(),
  },
  { additionalProperties: false, title: 'Delivery' },
);

export const Event = Type.Object(
  {
    id: Uuid({ description: 'Equal to the `webhook-id` of its deliveries' }),
    type: EventType,
    timestamp: DateTime({ description: 'When the change happened: the `timestamp` of the webhook body' }),
    apiVersion: Type.String({ description: 'The API version `data` is rendered at: the version this request is served at' }),
    livemode: Type.Boolean({ description: 'False for an event of the sandbox, listed with a test key (docs/connectors/testing-your-integration.md)' }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The `data` of the webhook body' }),
  },
  { additionalProperties: false, title: 'Event' },
);

export const deliveryListQueryFields = {
  status: Type.Optional(Type.Enum([...DELIVERY_STATUSES])),
  type: Type.Optional(EventType),
};

export const eventListQueryFields = {
  type: Type.Optional(EventType),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'RFC 3339; only events at or after this time' })),
};

export const DeliveryParams = Type.Object({ deliveryId: Uuid() }, { additionalProperties: false });
