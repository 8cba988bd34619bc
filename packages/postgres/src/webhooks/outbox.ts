import { audienceOf, type Outbox } from '@garage/domain';
import { sql } from 'kysely';
import { withErrorMapping } from '../errors.js';
import type { Executor } from '../schema.js';
import { OUTBOX_CHANNEL } from './outbox-channel.js';
import { activeTraceParent } from './trace-context.js';

const TOGGLE_COLUMN = { appointments: 'sync_appointments', catalog: 'sync_catalog', stock: 'sync_stock' } as const;

/**
 * The transactional outbox (docs/reference/contract.md §5). Bound to the caller's transaction, it writes the event and one
 * pending delivery per target integration in a single statement, so they commit or roll back with the change that
 * caused them; the delivery worker only ever sees committed events.
 */
export const makeOutbox = (db: Executor): Outbox =>
  withErrorMapping({
    async enqueue({ garageId, type, data }) {
      const toggle = audienceOf(type);
      // One statement, built inside the work that caused the event (the trace in progress is the event's): the event, its deliveries, and the wake-up of the deliverers (sent by Postgres at commit,
      // only when a delivery was written).
      await db
        .with('event', (qb) =>
          qb
            .insertInto('webhook_events')
            .values({ garage_id: garageId, type, payload: JSON.stringify(data), trace_parent: activeTraceParent() })
            .returning('id'),
        )
        .with('delivery', (qb) =>
          qb
            .insertInto('webhook_deliveries')
            .columns(['event_id', 'integration_id', 'url'])
            .expression((eb) =>
              eb
                .selectFrom(['event', 'integrations as i'])
                .select(['event.id', 'i.id', sql<string>`i.webhook_url`.as('url')])
                .where('i.garage_id', '=', garageId)
                .where('i.revoked_at', 'is', null)
                .where('i.webhook_url', 'is not', null)
                .$if(toggle !== null, (qb) => qb.where(`i.${TOGGLE_COLUMN[toggle!]}`, '=', true)),
            )
            .returning('id'),
        )
        .selectNoFrom(sql`pg_notify(${OUTBOX_CHANNEL}, '')`.as('notified'))
        .where(sql<boolean>`exists (select 1 from delivery)`)
        .execute();
    },
  });
