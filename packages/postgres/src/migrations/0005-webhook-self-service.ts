import { sql, type Kysely } from 'kysely';

/**
 * Webhook self-service and rotations (docs/reference/contract.md §5, §5.1):
 * - deliveries end as `cancelled` when their integration is revoked or loses its webhook URL; pending deliveries of
 *   integrations revoked before this migration are cancelled now, so nothing stays pending forever;
 * - the previous API key and webhook secret are kept, each with the end of its overlap, so a rotation loses no request
 *   and no message;
 * - `webhook_deliveries_integration_idx` serves an integration's delivery list (newest first), and
 *   `webhook_events_feed_idx` its event feed (a garage's events, oldest first).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_status_check`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_status_check
    check (status in ('pending', 'succeeded', 'failed', 'gone', 'cancelled'))`.execute(db);
  await sql`update webhook_deliveries d set status = 'cancelled', locked_until = null
    from integrations i where i.id = d.integration_id and d.status = 'pending' and i.revoked_at is not null`.execute(db);
  await db.schema
    .alterTable('integrations')
    .addColumn('previous_api_key_hash', 'text')
    .addColumn('previous_key_expires_at', 'timestamptz')
    .addColumn('previous_webhook_secret_key_id', 'text')
    .addColumn('previous_webhook_secret_nonce', 'text')
    .addColumn('previous_webhook_secret_ciphertext', 'text')
    .addColumn('previous_webhook_secret_tag', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
  await sql`create index integrations_previous_key_idx on integrations (previous_api_key_hash) where previous_api_key_hash is not null`.execute(db);
  await sql`create index webhook_deliveries_integration_idx on webhook_deliveries (integration_id, created_at desc, id desc)`.execute(db);
  await sql`create index webhook_events_feed_idx on webhook_events (garage_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_events_feed_idx`.execute(db);
  await sql`drop index webhook_deliveries_integration_idx`.execute(db);
  await sql`drop index integrations_previous_key_idx`.execute(db);
  await db.schema
    .alterTable('integrations')
    .dropColumn('previous_api_key_hash')
    .dropColumn('previous_key_expires_at')
    .dropColumn('previous_webhook_secret_key_id')
    .dropColumn('previous_webhook_secret_nonce')
    .dropColumn('previous_webhook_secret_ciphertext')
    .dropColumn('previous_webhook_secret_tag')
    .dropColumn('previous_secret_expires_at')
    .execute();
  await sql`update webhook_deliveries set status = 'failed' where status = 'cancelled'`.execute(db);
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_status_check`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_status_check
    check (status in ('pending', 'succeeded', 'failed', 'gone'))`.execute(db);
}
