import { Gauge, type Registry } from 'prom-client';

/** One retained table as measured: its oldest row's age against its retention (docs/operators/retention.md). */
export interface RetainedTableAge {
  table: string;
  oldestRowAgeSeconds: number;
  retentionSeconds: number;
}

/**
 * `data_oldest_row_age_seconds{table}` and `data_retention_seconds{table}`, read from the database at scrape time (an
 * index's first entry per table). An age that stays above its retention means the retention job falls behind
 * (the alert GarageRetentionBehind in deploy/prometheus/alerts.yaml).
 */
export const registerRetentionMetrics = (registry: Registry, measure: () => Promise<RetainedTableAge[]>): void => {
  let read: Promise<RetainedTableAge[]> | null = null;
  // One measure per scrape for both gauges. A database that does not answer leaves them out of that scrape instead of
  // failing it: the scrape must still carry the health gauges that say the database is down.
  const current = () => {
    read ??= measure()
      .catch(() => [])
      .finally(() => setTimeout(() => (read = null), 0));
    return read;
  };
  new Gauge({
    name: 'data_oldest_row_age_seconds',
    help: 'Age of the oldest row of each table that grows with time (0 when empty), by the date its retention counts from.',
    labelNames: ['table'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { table, oldestRowAgeSeconds } of await current()) this.set({ table }, oldestRowAgeSeconds);
    },
  });
  new Gauge({
    name: 'data_retention_seconds',
    help: 'How long each table that grows with time keeps its rows (the operator settings WEBHOOK_*_RETENTION_DAYS and the like).',
    labelNames: ['table'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { table, retentionSeconds } of await current()) this.set({ table }, retentionSeconds);
    },
  });
};
