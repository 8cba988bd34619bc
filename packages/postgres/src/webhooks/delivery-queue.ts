import { type ClaimedDelivery, type DeliveryQueue, isUuid } from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { withErrorMapping } from '../errors.js';
import { inTransaction } from '../transactions.js';
import { nowMs } from '../repositories/clocks.js';
import { notifyOutbox } from './outbox-channel.js';
import type { Database } from '../schema.js';
import { asEventType, asStatus } from './rows.js';

/**
 * The delivery queue on `webhook_deliveries`. A claim is one statement: it locks due rows with FOR UPDATE SKIP
 * LOCKED (concurrent claimers skip each other's rows instead of waiting) and stamps them with a lease in
 * `locked_until`, then commits; the HTTP call happens outside any transaction, and the outcome is written only if
 * the lease is still the one claimed. Takes the pool, not a transaction: claims must commit at once to be seen.
 */
export const makeDeliveryQueue = (db: Kysely<Database>): DeliveryQueue =>
  withErrorMapping({
    async claimDue({ now, limit, leaseMs, perIntegration, excludeIntegrations = [] }) {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      // With a per-integration cap, a few more rows than asked are locked and ranked by integration, so a backlog of
      // one slow receiver does not fill the claim; locking is per statement and the rows not chosen are freed at once.
      const scan = perIntegration === undefined ? limit : limit * 4;
      const rows = await db
        .with('candidates', (qb) =>
          qb
            .selectFrom('webhook_deliveries as c')
            .innerJoin('integrations as ci', 'ci.id', 'c.integration_id')
            .select(['c.id', 'c.integration_id', 'c.next_attempt_at'])
            .where('c.status', '=', 'pending')
            .where('c.next_attempt_at', '<=', now)
            .where((eb) => eb.or([eb('c.locked_until', 'is', null), eb('c.locked_until', '<=', now)]))
            .where('ci.revoked_at', 'is', null)
            .$if(excludeIntegrations.length > 0, (q) => q.where('c.integration_id', 'not in', [...excludeIntegrations]))
            .orderBy('c.next_attempt_at')
            .orderBy('c.id')
            .limit(scan)
            // Only the delivery rows: locking the integrations would make claims skip (or block) on unrelated
            // writes to them, such as an API key's last-use stamp.
            .forUpdate('c')
            .skipLocked(),
        )
        .with('due', (qb) =>
          qb
            .selectFrom((sub) =>
              sub
                .selectFrom('candidates')
                .select([
                  'candidates.id',
                  'candidates.next_attempt_at',
                  sql<number>`row_number() over (partition by integration_id order by next_attempt_at, id)`.as('rank'),
                ])
                .as('ranked'),
            )
            .select('ranked.id')
            .$if(perIntegration !== undefined, (q) => q.where('ranked.rank', '<=', perIntegration!))
            .orderBy('ranked.next_attempt_at')
            .orderBy('ranked.id')
            .limit(limit),
        )
        .updateTable('webhook_deliveries as d')
        .from(['due', 'webhook_events as e', 'integrations as i'])
        .set({ locked_until: leaseUntil, updated_at: nowMs })
        .whereRef('d.id', '=', 'due.id')
        .whereRef('e.id', '=', 'd.event_id')
        .whereRef('i.id', '=', 'd.integration_id')
        .returning([
          'd.id',
          'd.integration_id',
          'd.url',
          'd.attempts',
          'd.next_attempt_at',
          'e.id as event_id',
          'e.type',
          'e.payload',
          'e.created_at as occurred_at',
          'e.trace_parent',
          'i.api_version',
          'i.live_integration_id',
          'i.webhook_secret_key_id',
          'i.webhook_secret_nonce',
          'i.webhook_secret_ciphertext',
          'i.webhook_secret_tag',
          'i.previous_webhook_secret_key_id',
          'i.previous_webhook_secret_nonce',
          'i.previous_webhook_secret_ciphertext',
          'i.previous_webhook_secret_tag',
          sql<boolean>`coalesce(i.previous_secret_expires_at > now(), false)`.as('previous_valid'),
        ])
        .execute();
      return rows
        .sort((a, b) => a.next_attempt_at.getTime() - b.next_attempt_at.getTime() || a.id.localeCompare(b.id))
        .map(
          (row): ClaimedDelivery => ({
            id: row.id,
            integrationId: row.integration_id,
            url: row.url,
            attempts: row.attempts,
            leaseUntil,
            event: {
              id: row.event_id,
              type: asEventType(row.type),
              occurredAt: row.occurred_at,
              // The test side of an integration receives its sandbox's events only.
              livemode: row.live_integration_id === null,
              data: row.payload,
            },
            traceParent: row.trace_parent,
            apiVersion: row.api_version,
            secret: {
              keyId: row.webhook_secret_key_id,
              nonce: row.webhook_secret_nonce,
              ciphertext: row.webhook_secret_ciphertext,
              tag: row.webhook_secret_tag,
            },
            previousSecret:
              row.previous_valid &&
              row.previous_webhook_secret_key_id !== null &&
              row.previous_webhook_secret_nonce !== null &&
              row.previous_webhook_secret_ciphertext !== null &&
              row.previous_webhook_secret_tag !== null
                ? {
                    keyId: row.previous_webhook_secret_key_id,
                    nonce: row.previous_webhook_secret_nonce,
                    ciphertext: row.previous_webhook_secret_ciphertext,
                    tag: row.previous_webhook_secret_tag,
                  }
                : null,
          }),
        );
    },

    async complete(delivery, attempt, outcome) {
      return inTransaction(db, async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: delivery.id,
            attempted_at: attempt.attemptedAt,
            status_code: attempt.statusCode,
            error: attempt.error,
            duration_ms: Math.round(attempt.durationMs),
          })
          .execute();
        // The lease is the fencing token: a worker whose lease ran out (and whose delivery someone else took over)
        // matches no row here, and its late outcome cannot overwrite the newer one.
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set({
            status: outcome.status,
            attempts: sql`attempts + 1`,
            locked_until: null,
            updated_at: nowMs,
            ...(outcome.status === 'pending' ? { next_attempt_at: outcome.nextAttemptAt } : {}),
          })
          .where('id', '=', delivery.id)
          .where('status', '=', 'pending')
          .where('locked_until', '=', delivery.leaseUntil)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        if (outcome.status === 'gone') {
          await trx
            .updateTable('webhook_deliveries')
            .set({ status: 'gone', updated_at: nowMs })
            .where('integration_id', '=', delivery.integrationId)
            .where('url', '=', delivery.url)
            .where('status', '=', 'pending')
            .execute();
        }
        return true;
      });
    },

    async replayEvent(eventId, now) {
      if (!isUuid(eventId)) return null;
      return inTransaction(db, async (trx) => {
        const event = await trx.selectFrom('webhook_events').select('id').where('id', '=', eventId).executeTakeFirst();
        if (!event) return null;
        // `locked_until` is left alone: a delivery being sent right now stays with its worker until it is recorded.
        const result = await trx
          .updateTable('webhook_deliveries as d')
          .from('integrations as i')
          .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: nowMs })
          .whereRef('i.id', '=', 'd.integration_id')
          .where('d.event_id', '=', eventId)
          .where('i.revoked_at', 'is', null)
          .executeTakeFirst();
        return Number(result.numUpdatedRows);
      });
    },

    async retryDelivery(integrationId, deliveryId, now) {
      if (!isUuid(integrationId) || !isUuid(deliveryId)) return 'not_found';
      return inTransaction(db, async (trx) => {
        const found = await trx
          .selectFrom('webhook_deliveries as d')
          .innerJoin('integrations as i', 'i.id', 'd.integration_id')
          .select('i.webhook_url')
          .where('d.id', '=', deliveryId)
          .where('d.integration_id', '=', integrationId)
          .forUpdate('d')
          .executeTakeFirst();
        if (!found) return 'not_found';
        if (found.webhook_url === null) return 'no_url';
        // The attempt count stays: a delivery that had failed gets exactly one more try. A delivery being sent right
        // now keeps its lease; this attempt follows it.
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', url: found.webhook_url, next_attempt_at: now, updated_at: nowMs })
          .where('id', '=', deliveryId)
          .execute();
        await notifyOutbox(trx);
        return 'queued';
      });
    },

    async nextDueAt() {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min('next_attempt_at').as('next'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return row?.next ? new Date(row.next) : null;
    },

    async backlog() {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          eb.fn.countAll().as('pending'),
          sql<number>`coalesce(extract(epoch from now() - min(created_at)), 0)`.as('age'),
        ])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), oldestPendingAgeSeconds: Math.max(0, Number(row.age)) };
    },

    async listByIntegration(integrationId, limit) {
      if (!isUuid(integrationId)) return [];
      const deliveries = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select([
          'd.id',
          'd.event_id',
          'e.type',
          'd.url',
          'd.status',
          'd.attempts',
          'd.next_attempt_at',
          'd.created_at',
        ])
        .where('d.integration_id', '=', integrationId)
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(limit)
        .execute();
      if (deliveries.length === 0) return [];
      const attempts = await db
        .selectFrom('webhook_attempts')
        .select(['delivery_id', 'attempted_at', 'status_code', 'error', 'duration_ms'])
        .where(
          'delivery_id',
          'in',
          deliveries.map((d) => d.id),
        )
        .orderBy('attempted_at')
        .orderBy('id')
        .execute();
      return deliveries.map((d) => {
        const status = asStatus(d.status);
        return {
          id: d.id,
          eventId: d.event_id,
          type: asEventType(d.type),
          url: d.url,
          status,
          attemptCount: d.attempts,
          nextAttemptAt: status === 'pending' ? d.next_attempt_at : null,
          createdAt: d.created_at,
          attempts: attempts
            .filter((a) => a.delivery_id === d.id)
            .map((a) => ({
              attemptedAt: a.attempted_at,
              statusCode: a.status_code,
              error: a.error,
              durationMs: a.duration_ms,
            })),
        };
      });
    },
  });
