import { Registry } from 'prom-client';
import t from 'tap';
import { registerRetentionMetrics } from '../src/index.js';

t.test("each table's oldest row age and retention, and a scrape that survives a database that does not answer", async (t) => {
  const registry = new Registry();
  let answer: () => Promise<{ table: string; oldestRowAgeSeconds: number; retentionSeconds: number }[]> = async () => [
    { table: 'webhook_events', oldestRowAgeSeconds: 86_400, retentionSeconds: 2_592_000 },
  ];
  registerRetentionMetrics(registry, () => answer());
  const text = await registry.metrics();
  t.match(text, /^data_oldest_row_age_seconds\{table="webhook_events"\} 86400$/m);
  t.match(text, /^data_retention_seconds\{table="webhook_events"\} 2592000$/m);

  answer = async () => {
    throw new Error('connection refused');
  };
  // A scrape's measure is shared by both gauges until the next turn of the timers; the next scrape measures again.
  await new Promise((resolve) => setTimeout(resolve, 1));
  const down = await registry.metrics();
  t.notMatch(down, /^data_oldest_row_age_seconds\{/m, 'no stale value while the database does not answer');
  t.match(down, /# HELP data_oldest_row_age_seconds/, 'and the scrape itself succeeds');
});
