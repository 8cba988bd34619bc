import { DAY_MS, type RetentionPolicy, type RetentionSettings } from '@garage/domain';

/** A table that grows with time: the column that dates its rows, and how long rows are kept past that date. */
export interface RetainedTable {
  table: string;
  /** Indexed (a retention batch and the age metric read the oldest rows by it). */
  dateColumn: string;
  keepDays: number;
}

/**
 * Every table that grows with time, one line each (docs/operators/retention.md says how to add one). Children come
 * before their parents, so that a parent's delete finds little left to cascade to. Idempotency records are dated by
 * their expiry, kept no longer than it: the contract's 24 hours are counted where a record is written.
 */
export const retainedTables = (settings: RetentionSettings): RetainedTable[] => [
  { table: 'webhook_attempts', dateColumn: 'attempted_at', keepDays: settings.webhookDeliveryDays },
  { table: 'webhook_deliveries', dateColumn: 'created_at', keepDays: settings.webhookDeliveryDays },
  { table: 'webhook_events', dateColumn: 'created_at', keepDays: settings.webhookEventDays },
  { table: 'idempotency_keys', dateColumn: 'expires_at', keepDays: 0 },
  // A chunk goes when its newest record does: its oldest are at most `CHUNK_SPAN_MS` older.
  { table: 'request_log_chunks', dateColumn: 'last_at', keepDays: settings.requestLogDays },
  { table: 'request_log', dateColumn: 'created_at', keepDays: settings.requestLogDays },
];

/**
 * The name the retention job and its metric give sandbox data (`purgeSandboxData`): not one table, but what connectors
 * created in the sandboxes, dated by each sandbox's last touch.
 */
export const SANDBOX_DATA = 'sandbox';

/**
 * The domain's view of what is retained: the tables, their names and how long they keep rows, then sandbox data, last
 * (the webhook tables' own retention has by then deleted the oldest of its events).
 */
export const retentionPoliciesOf = (tables: readonly RetainedTable[], settings: RetentionSettings): RetentionPolicy[] => [
  ...tables.map(({ table, keepDays }) => ({ table, keepMs: keepDays * DAY_MS })),
  { table: SANDBOX_DATA, keepMs: settings.sandboxDays * DAY_MS },
];
