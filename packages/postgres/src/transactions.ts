import type { Kysely, Transaction } from 'kysely';
import { mayRunAgain } from './errors.js';

/** How many times in all a transaction is run before its last error is the caller's. */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * Runs `work` in one transaction, in READ COMMITTED whatever the server default, and runs it again, at most
 * `TRANSACTION_ATTEMPTS` times in all, when it ended in a way that wrote nothing and that running it again remedies
 * (`mayRunAgain`): a conflict Postgres aborted (a deadlock, a serialization failure), or a named statement that the
 * next release's migration made stale during a rolling upgrade. `work` must touch nothing but the transaction it is
 * given, so that running it again is safe; the caller sees the answer of the run that committed.
 */
export const inTransaction = <DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> =>
  runningAgain(() => db.transaction().setIsolationLevel('read committed').execute(work));

/**
 * Runs `attempt` again, `TRANSACTION_ATTEMPTS` times in all, while it ends in a way that wrote nothing and that running
 * it again remedies (`mayRunAgain`): a transaction, or a statement that is a transaction of its own (a booking's write
 * on the pool, which a sandbox reset may deadlock with). Never a statement inside a transaction: there the error has
 * ended the transaction, which is what runs again.
 */
export const runningAgain = async <T>(attempt: () => Promise<T>): Promise<T> => {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (err) {
      if (run >= TRANSACTION_ATTEMPTS || !mayRunAgain(err)) throw err;
    }
  }
};
