import { isUuid, type Mode, type PortalStore } from '@garage/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Portal links, sessions and actions in Postgres (migration 0019); a revoked integration's sessions are never found. */
export const makePortalStore = (db: Kysely<Database>): PortalStore => ({
  async createLink({ integrationId, tokenHash, expiresAt }) {
    await db.insertInto('portal_links').values({ integration_id: integrationId, token_hash: tokenHash, expires_at: expiresAt }).execute();
  },

  async consumeLink(tokenHash, at) {
    // One statement: of two exchanges of the same link, only one sees `used_at` still null.
    const used = await db
      .updateTable('portal_links as l')
      .set({ used_at: at })
      .from('integrations as i')
      .whereRef('i.id', '=', 'l.integration_id')
      .where('l.token_hash', '=', tokenHash)
      .where('l.used_at', 'is', null)
      .where('l.expires_at', '>', at)
      .where('i.revoked_at', 'is', null)
      .returning('l.integration_id')
      .executeTakeFirst();
    if (used) return { integrationId: used.integration_id };
    const link = await db
      .selectFrom('portal_links as l')
      .innerJoin('integrations as i', 'i.id', 'l.integration_id')
      .select(['l.used_at', 'l.expires_at', 'i.revoked_at'])
      .where('l.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!link || link.revoked_at !== null) return { refused: 'unknown' };
    return { refused: link.used_at !== null ? 'used' : 'expired' };
  },

  async createSession({ integrationId, sessionHash, expiresAt }) {
    const row = await db
      .insertInto('portal_sessions')
      .values({ integration_id: integrationId, session_hash: sessionHash, expires_at: expiresAt })
      .returning(['id', 'integration_id', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, integrationId: row.integration_id, expiresAt: row.expires_at };
  },

  async findSession(sessionHash, at) {
    const row = await db
      .selectFrom('portal_sessions as s')
      .innerJoin('integrations as i', 'i.id', 's.integration_id')
      .select(['s.id', 's.integration_id', 's.expires_at'])
      .where('s.session_hash', '=', sessionHash)
      .where('s.ended_at', 'is', null)
      .where('s.expires_at', '>', at)
      .where('i.revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? { id: row.id, integrationId: row.integration_id, expiresAt: row.expires_at } : null;
  },

  async endSession(sessionId, at) {
    await db.updateTable('portal_sessions').set({ ended_at: at }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
  },

  async recordAction({ integrationId, sessionId, mode, action, detail }) {
    const row = await db
      .insertInto('portal_actions')
      .values({ integration_id: integrationId, session_id: sessionId, mode, action, detail: JSON.stringify(detail) })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    return { id: row.id, integrationId, mode, action, detail, at: row.created_at };
  },

  async keyEndings(liveIntegrationId) {
    if (!isUuid(liveIntegrationId)) return { live: null, test: null };
    const rows = await db
      .selectFrom('integrations')
      .select(['id', 'api_key_ending'])
      .where((eb) => eb.or([eb('id', '=', liveIntegrationId), eb('live_integration_id', '=', liveIntegrationId)]))
      .execute();
    const endingOf = (live: boolean) => rows.find((r) => (r.id === liveIntegrationId) === live)?.api_key_ending ?? null;
    return { live: endingOf(true), test: endingOf(false) };
  },

  async listActions(integrationId, limit) {
    if (!isUuid(integrationId)) return [];
    const rows = await db
      .selectFrom('portal_actions')
      .select(['id', 'integration_id', 'mode', 'action', 'detail', 'created_at'])
      .where('integration_id', '=', integrationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, integrationId: r.integration_id, mode: r.mode as Mode, action: r.action, detail: r.detail, at: r.created_at }));
  },
});
