import { SYNC_TOGGLE_COLUMNS } from '../repositories/sync-toggle-columns.js';
import { literal } from './sql-text.js';

/** "The integration has the toggle `audience` on", one branch per toggle of the domain; no audience: every one. */
const receivesAudience = (integration: string, audience: string): string =>
  [
    `case ${audience}`,
    ...Object.entries(SYNC_TOGGLE_COLUMNS).map(([toggle, column]) => `when ${literal(toggle)} then ${integration}.${column}`),
    'else true',
    'end',
  ].join(' ');

/**
 * The transactional outbox's one write: the event, one pending delivery per integration that receives it (its
 * audience is the domain's `audienceOf(type)`, passed by the caller), and the deliverers' wake-up at commit when a
 * delivery was written. PL/pgSQL so that its plans are kept per connection.
 */
export const enqueueWebhookEvent = `
create or replace function enqueue_webhook_event(
  garage uuid, event_type text, payload jsonb, trace_parent text, audience text, channel text
) returns void
language plpgsql volatile as $$
declare
  event uuid;
begin
  insert into webhook_events (garage_id, type, payload, trace_parent)
    values (garage, event_type, payload, trace_parent)
    returning id into event;
  insert into webhook_deliveries (event_id, integration_id, url)
    select event, i.id, i.webhook_url
      from integrations i
     where i.garage_id = garage and i.revoked_at is null and i.webhook_url is not null
       and ${receivesAudience('i', 'audience')};
  if found then
    perform pg_notify(channel, '');
  end if;
end
$$`;
