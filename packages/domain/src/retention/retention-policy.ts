/**
 * How long the rows of one table that grows with time are kept (docs/operators/retention.md). `table` names what the
 * retention store knows how to date and delete; `keepMs` counts from the date it reads for each row.
 */
export interface RetentionPolicy {
  table: string;
  keepMs: number;
}

/** The events feed keeps at least this many days (docs/reference/contract.md §5.1): no setting may keep fewer. */
export const EVENT_FEED_DAYS = 30;

export const DAY_MS = 86_400_000;

/** The operator's retention settings, in days (docs/operators/configuration.md). */
export interface RetentionSettings {
  /** Webhook events: the events feed and the stored payloads. At least `EVENT_FEED_DAYS`. */
  webhookEventDays: number;
  /** Webhook deliveries and their attempts. A delivery goes with its event at the latest. */
  webhookDeliveryDays: number;
  /** A sandbox's appointments, leads, quotes and events, once the sandbox is untouched this long (contract §9). */
  sandboxDays: number;
  /** The request log's records (contract §10). */
  requestLogDays: number;
}
