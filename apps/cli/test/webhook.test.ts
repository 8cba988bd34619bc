import t from 'tap';
import { cliFails, cliJson, UUID, LOOPBACK_WEBHOOKS } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);

t.test('webhook deliveries lists an integration\'s deliveries and webhook replay queues an event again', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'hooks', '--name', 'Hooks'], env);
  const integration = await cliJson(t, ['integration', 'create', '--garage', 'hooks', '--name', 'shop', '--webhook-url', 'http://127.0.0.1:9/hooks'], { ...env, ...LOOPBACK_WEBHOOKS });
  t.same(await cliJson(t, ['webhook', 'deliveries', '--integration', integration.id], env), [], 'nothing delivered yet');

  // An event as the outbox writes it: the event row and one delivery for the integration, with one failed attempt.
  const [event] = await query<{ id: string }>(
    `insert into webhook_events (garage_id, type, payload)
     select garage_id, 'lead.created', '{"id":"lead-1"}'::jsonb from integrations where id = $1 returning id`,
    [integration.id],
  );
  const [delivery] = await query<{ id: string }>(
    `insert into webhook_deliveries (event_id, integration_id, url, attempts, status)
     values ($1, $2, 'http://127.0.0.1:9/hooks', 1, 'failed') returning id`,
    [event!.id, integration.id],
  );
  await query(
    `insert into webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms) values ($1, now(), null, 'connection refused', 3)`,
    [delivery!.id],
  );

  const [listed] = await cliJson(t, ['webhook', 'deliveries', '--integration', integration.id, '--limit', '10'], env);
  t.same(Object.keys(listed).sort(), ['attemptCount', 'attempts', 'createdAt', 'eventId', 'id', 'nextAttemptAt', 'status', 'type', 'url']);
  t.match(listed, { id: delivery!.id, eventId: event!.id, type: 'lead.created', status: 'failed', attemptCount: 1, nextAttemptAt: null });
  t.match(listed.attempts, [{ statusCode: null, error: 'connection refused', durationMs: 3 }]);

  t.same(await cliJson(t, ['webhook', 'replay', event!.id], env), { eventId: event!.id, deliveries: 1 });
  const [replayed] = await query<{ status: string }>('select status from webhook_deliveries where id = $1', [delivery!.id]);
  t.equal(replayed?.status, 'pending', 'the delivery is due again');
});

t.test('unknown ids are reported on stderr with a non-zero exit', async (t) => {
  const unknown = '00000000-0000-4000-8000-000000000000';
  await cliFails(t, ['webhook', 'replay', unknown, '--json'], env, 2, [/not found/i, /NOT_FOUND/]);
  await cliFails(t, ['webhook', 'deliveries', '--integration', unknown, '--json'], env, 2, [/NOT_FOUND/]);
  await cliFails(t, ['webhook', 'replay', 'not-a-uuid', '--json'], env, 1, [/UUID/]);
  t.match(unknown, UUID);
});
