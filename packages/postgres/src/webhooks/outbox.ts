import { audienceOf, type Outbox, type OutboxEvent } from '@garage/domain';
import type { CompiledQuery } from 'kysely';
import { withErrorMapping } from '../errors.js';
import { fixedQuery } from '../fixed-query.js';
import type { Executor } from '../schema.js';
import type { WritesAtCommit } from '../writes-at-commit.js';
import { OUTBOX_CHANNEL } from './outbox-channel.js';
import { activeTraceParent } from './trace-context.js';

/**
 * The event ($1 garage, $2 type, $3 payload, $6 the trace that wrote it), its deliveries to the garage's integrations ($4) that take it, and the
 * wake-up of the deliverers ($5 the channel), in one statement; Postgres sends the NOTIFY at commit, only when a
 * delivery was written. Fixed texts, one per audience: the query builder spent some 20 µs building and compiling it
 * on every write, its `sql` tag still a few (issue 18).
 */
const enqueueText = (audience: string) => `
  with event as (
    insert into webhook_events (garage_id, type, payload, trace_parent) values ($1, $2, $3, $6)
    returning id
  ), delivery as (
    insert into webhook_deliveries (event_id, integration_id, url)
    select event.id, i.id, i.webhook_url
      from event, integrations as i
     where i.garage_id = $4 and i.revoked_at is null and i.webhook_url is not null ${audience}
    returning id
  )
  select pg_notify($5, '') as notified where exists (select 1 from delivery)`;

const ENQUEUE = {
  all: fixedQuery(enqueueText('')),
  appointments: fixedQuery(enqueueText('and i.sync_appointments')),
  catalog: fixedQuery(enqueueText('and i.sync_catalog')),
  stock: fixedQuery(enqueueText('and i.sync_stock')),
} as const;

/** Built where the event is enqueued, inside the work that caused it: the trace in progress there is the event's. */
const enqueueStatement = ({ garageId, type, data }: OutboxEvent): CompiledQuery =>
  ENQUEUE[audienceOf(type) ?? 'all']([garageId, type, JSON.stringify(data), garageId, OUTBOX_CHANNEL, activeTraceParent()]);

/**
 * The transactional outbox (CONTRACT.md §5). Bound to the caller's transaction, it writes the event and one
 * pending delivery per target integration in a single statement, so they commit or roll back with the change that
 * caused them; the delivery worker only ever sees committed events.
 */
export const makeOutbox = (db: Executor): Outbox =>
  withErrorMapping({
    async enqueue(event) {
      await db.executeQuery(enqueueStatement(event));
    },
  });

/**
 * The outbox of a unit of work: nothing reads an event before the transaction ends, so its statement is written with
 * the COMMIT (writes-at-commit.ts), a round trip fewer for every change that sends an event. A failure to write it
 * fails the commit.
 */
export const makeOutboxAtCommit = (db: Executor, writes: WritesAtCommit): Outbox => ({
  async enqueue(event) {
    writes.statements.push(enqueueStatement(event));
  },
});
