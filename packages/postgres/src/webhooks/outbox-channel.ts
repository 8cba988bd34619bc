import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/**
 * The channel on which a commit that makes a delivery due wakes the deliverers (docs/reference/contract.md §5: the first attempt
 * starts within a second of the commit, with no polling interval adding to it). Postgres delivers a NOTIFY only when
 * its transaction commits, so a listener never sees a delivery it cannot read yet.
 */
export const OUTBOX_CHANNEL = 'webhook_outbox';

export const notifyOutbox = async (db: Executor): Promise<void> => {
  await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
};
