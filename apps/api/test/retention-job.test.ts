import { testClock } from '@garage/domain/testing';
import t from 'tap';
import { build } from './helper.js';

/** docs/operators/retention.md: the API process runs the retention job and reports each table's oldest row. */
t.test('the running API deletes what is past its retention and shows the oldest row age', async (t) => {
  const clock = testClock('2026-12-15T12:00:00Z');
  const { app, admin, db } = await build(t, { clock, retentionIntervalMs: 50, env: { DELIVER_WEBHOOKS: 'false' } });
  const garage = await admin.createGarage({ slug: 'kept', name: 'Kept' });
  const event = (createdAt: string) =>
    db.handle.db.insertInto('webhook_events').values({ garage_id: garage.id, type: 'lead.created', payload: '{}', created_at: createdAt }).execute();
  await event('2026-10-31T12:00:00Z');
  await event('2026-12-10T12:00:00Z');
  await app.ready();
  const ageOfEvents = async () => {
    const text = await app.metrics.registry.metrics();
    return Number(/^data_oldest_row_age_seconds\{table="webhook_events"\} (\d+)$/m.exec(text)?.[1]);
  };
  const remaining = async () => (await db.handle.db.selectFrom('webhook_events').select('created_at').execute()).map((r) => r.created_at.toISOString());

  for (let i = 0; i < 200 && (await remaining()).length > 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  t.same(await remaining(), ['2026-12-10T12:00:00.000Z'], 'the 45-day-old event went, the 5-day-old one stays');
  t.equal(await ageOfEvents(), 5 * 86_400, "the oldest event's age, by the app's clock");
  t.match(await app.metrics.registry.metrics(), /^data_retention_seconds\{table="webhook_events"\} 2592000$/m, 'beside its retention: 30 days');
});
