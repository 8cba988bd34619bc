import { sql, type Kysely } from 'kysely';

/**
 * API versions (docs/connectors/versions.md): every integration is pinned to one. Those that exist now were built
 * against the first version, `2026-11-21`, and stay on it; so does one created without a version (the CLI always
 * gives one: the latest).
 *
 * Events are stored in the newest shape and rendered at each receiver's version when sent or listed, so the
 * `lead.created` events already written are brought to the newest shape: `data.vehicle` instead of `data.vehicleId`
 * and `data.vehicleReference`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integrations add column api_version text not null default '2026-11-21'`.execute(db);
  await sql`
    update webhook_events e
       set payload = (e.payload - 'vehicleId' - 'vehicleReference') || jsonb_build_object(
             'vehicle', jsonb_build_object('id', v.id, 'reference', v.reference, 'make', v.make, 'model', v.model, 'year', v.year))
      from vehicles v
     where e.type = 'lead.created' and e.payload ? 'vehicleId' and v.id = (e.payload->>'vehicleId')::uuid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update webhook_events
       set payload = (payload - 'vehicle') || jsonb_build_object('vehicleId', payload->'vehicle'->'id', 'vehicleReference', payload->'vehicle'->'reference')
     where type = 'lead.created' and payload ? 'vehicle'`.execute(db);
  await sql`alter table integrations drop column api_version`.execute(db);
}
