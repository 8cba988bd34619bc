import { isUuid, type DeliverySummary, type WebhookFeed } from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { withErrorMapping } from '../errors.js';
import type { Database } from '../schema.js';
import { asEventType, asStatus } from './rows.js';

/** An integration's deliveries with their last attempt, narrowed (filtered, ordered, limited) by the caller. */
const deliveriesOn = (db: Kysely<Database>) => {
  const base = (integrationId: string) =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('webhook_attempts as a')
            .select(['a.attempted_at', 'a.status_code'])
            .whereRef('a.delivery_id', '=', 'd.id')
            .orderBy('a.attempted_at', 'desc')
            .orderBy('a.id', 'desc')
            .limit(1)
            .as('last'),
        (join) => join.onTrue(),
      )
      .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.created_at', 'last.attempted_at', 'last.status_code'])
      .where('d.integration_id', '=', integrationId);
  return async (integrationId: string, narrow: (query: ReturnType<typeof base>) => ReturnType<typeof base>): Promise<DeliverySummary[]> => {
    const rows = await narrow(base(integrationId)).execute();
    return rows.map((row) => {
      const rowStatus = asStatus(row.status);
      return {
        id: row.id,
        eventId: row.event_id,
        type: asEventType(row.type),
        status: rowStatus,
        attemptCount: row.attempts,
        lastAttemptAt: row.attempted_at ?? null,
        lastResponseStatus: row.status_code ?? null,
        nextAttemptAt: rowStatus === 'pending' ? row.next_attempt_at : null,
        createdAt: row.created_at,
      };
    });
  };
};

/**
 * An integration's own view of its webhooks (docs/reference/contract.md §5.1). Read from the primary: a connector checking the
 * delivery it just retried, or the event it was just sent, must see it.
 */
export const makeWebhookFeed = (db: Kysely<Database>): WebhookFeed => {
  const deliveries = deliveriesOn(db);
  return withErrorMapping({
    async listDeliveries({ integrationId, limit, after, status, type }) {
      if (!isUuid(integrationId)) return [];
      return deliveries(integrationId, (qb) =>
        qb
          .$if(status !== null, (q) => q.where('d.status', '=', status!))
          .$if(type !== null, (q) => q.where('e.type', '=', type!))
          .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('d.created_at', 'd.id'), '<', eb.tuple(after!.sortValue, after!.id))))
          .orderBy('d.created_at', 'desc')
          .orderBy('d.id', 'desc')
          .limit(limit),
      );
    },

    async findDelivery(integrationId, deliveryId) {
      if (!isUuid(integrationId) || !isUuid(deliveryId)) return null;
      const [found] = await deliveries(integrationId, (qb) => qb.where('d.id', '=', deliveryId));
      return found ?? null;
    },

    async listEvents({ integrationId, limit, after, type, since }) {
      if (!isUuid(integrationId)) return [];
      const rows = await db
        .selectFrom('webhook_events as e')
        .innerJoin('integrations as i', (join) => join.onRef('i.garage_id', '=', 'e.garage_id').on('i.id', '=', integrationId))
        .select(['e.id', 'e.type', 'e.payload', 'e.created_at', 'i.live_integration_id'])
        .whereRef('e.created_at', '>=', 'i.created_at')
        // Appointment events reach integrations that sync appointments (§5); one it was actually sent stays in its
        // feed even after the toggle is turned off.
        .where(
          sql<boolean>`(e.type not like 'appointment.%' or i.sync_appointments
            or exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.integration_id = i.id))`,
        )
        .$if(type !== null, (qb) => qb.where('e.type', '=', type!))
        .$if(since !== null, (qb) => qb.where('e.created_at', '>=', since!))
        .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('e.created_at', 'e.id'), '>', eb.tuple(after!.sortValue, after!.id))))
        .orderBy('e.created_at')
        .orderBy('e.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        type: asEventType(row.type),
        occurredAt: row.created_at,
        livemode: row.live_integration_id === null,
        data: row.payload,
      }));
    },
  });
};
