import { audienceOf, type Outbox } from '@garage/domain';
import { sql } from 'kysely';
import { withErrorMapping } from '../errors.js';
import type { Executor } from '../schema.js';
import { OUTBOX_CHANNEL } from './outbox-channel.js';
import { activeTraceParent } from './trace-context.js';

/**
 * The transactional outbox (docs/reference/contract.md §5). Bound to the caller's transaction, it writes the event and one
 * pending delivery per target integration in a single statement, so they commit or roll back with the change that
 * caused them; the delivery worker only ever sees committed events. The statement is the function
 * `enqueue_webhook_event` (src/sql-rules/webhook-outbox.ts), which also wakes the deliverers at commit when a delivery was written, and
 * runs inside the work that caused the event, so that the trace in progress is the event's.
 */
export const makeOutbox = (db: Executor): Outbox =>
  withErrorMapping({
    async enqueue({ garageId, type, data }) {
      await sql`select enqueue_webhook_event(${garageId}, ${type}, ${JSON.stringify(data)}, ${activeTraceParent()}, ${audienceOf(type)}, ${OUTBOX_CHANNEL})`.execute(db);
    },
  });
