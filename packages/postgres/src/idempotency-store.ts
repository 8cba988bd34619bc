import type { IdempotencyBegin, IdempotencyStore } from '@garage/domain';
import { sql } from 'kysely';
import { withErrorMapping } from './errors.js';
import type { Executor } from './schema.js';

/**
 * A claim found by the select after a failed upsert can vanish before it is read (released by its request, or
 * purged); the claim is then simply attempted again. Two rounds suffice unless something deletes keys in a tight
 * loop, which nothing does; the bound only turns such a bug into an error instead of a hang.
 */
const MAX_CLAIM_ROUNDS = 5;

/**
 * Idempotency-Key records on `idempotency_keys` (port `IdempotencyStore`). `begin` claims with one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE`: Postgres decides atomically between concurrent claims of one
 * `(scope, key)`, so exactly one of them inserts (or takes over an expired record, or a same-request claim whose
 * lease ran out) and sees its row returned; the others read the record that won and learn its state. Every method is
 * one autocommit statement: a claim is visible to other instances at once, and is never undone by the rollback of
 * the request it guards.
 */
export const makeIdempotencyStore = (db: Executor): IdempotencyStore =>
  withErrorMapping({
    async begin(claim): Promise<IdempotencyBegin> {
      const { scope, key, requestHash, now, lockedUntil, expiresAt } = claim;
      for (let round = 0; round < MAX_CLAIM_ROUNDS; round += 1) {
        const expired = sql<boolean>`idempotency_keys.expires_at <= ${now}`;
        const claimed = await db
          .insertInto('idempotency_keys')
          .values({
            scope,
            key,
            request_hash: requestHash,
            state: 'in_progress',
            locked_until: lockedUntil,
            created_at: now,
            expires_at: expiresAt,
          })
          .onConflict((oc) =>
            oc
              .columns(['scope', 'key'])
              // An expired record is replaced as if absent; a takeover renews the lease only, keeping the expiry.
              .doUpdateSet({
                request_hash: (eb) => eb.ref('excluded.request_hash'),
                state: 'in_progress',
                response_status: null,
                response_body: null,
                locked_until: (eb) => eb.ref('excluded.locked_until'),
                created_at: sql`case when ${expired} then excluded.created_at else idempotency_keys.created_at end`,
                expires_at: sql`case when ${expired} then excluded.expires_at else idempotency_keys.expires_at end`,
              })
              .where((eb) =>
                eb.or([
                  eb('idempotency_keys.expires_at', '<=', now),
                  eb.and([
                    eb('idempotency_keys.state', '=', 'in_progress'),
                    eb('idempotency_keys.locked_until', '<=', now),
                    eb('idempotency_keys.request_hash', '=', eb.ref('excluded.request_hash')),
                  ]),
                ]),
              ),
          )
          .returning('scope')
          .executeTakeFirst();
        if (claimed) return { state: 'new' };

        const row = await db
          .selectFrom('idempotency_keys')
          .select(['request_hash', 'state', 'response_status', 'response_body'])
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (!row) continue;
        if (row.request_hash !== requestHash) return { state: 'mismatch' };
        if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
          return { state: 'completed', response: { status: row.response_status, body: JSON.parse(row.response_body) } };
        }
        return { state: 'in_progress' };
      }
      throw new Error(`idempotency key ${scope}/${key} kept disappearing while being claimed`);
    },

    async complete(scope, key, response) {
      await db
        .updateTable('idempotency_keys')
        .set({
          state: 'completed',
          response_status: response.status,
          response_body: JSON.stringify(response.body ?? null),
          locked_until: null,
        })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('state', '=', 'in_progress')
        .execute();
    },

    async release(scope, key) {
      await db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('state', '=', 'in_progress')
        .execute();
    },

  });
