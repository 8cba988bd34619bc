import { PostgresDialect, PostgresDriver, type DatabaseConnection, type Driver, type PostgresDialectConfig, type TransactionSettings } from 'kysely';
import { PreparingClient } from './prepared-statements.js';
import { writesAtCommit } from './writes-at-commit.js';

/**
 * Kysely's Postgres driver, but a transaction's `BEGIN` travels with its first statement instead of taking a round
 * trip of its own: the pool's clients run in pg's pipeline mode (db.ts), `beginTransaction` sends `BEGIN` without
 * waiting for its answer, and `PipeliningClient` writes it together with the statement the work sends next, in the
 * same tick. A booking's transaction is a round trip shorter (issue 18); Postgres runs the two in order, as if the
 * first had waited.
 *
 * `BEGIN`'s answer is checked at commit, which fails if it failed. On a usable connection it cannot fail (`START
 * TRANSACTION` inside a transaction only warns); on a lost one the statements behind it fail as well, and the work
 * rolls back.
 */
class PipelinedBeginDriver extends PostgresDriver {
  readonly #begins = new WeakMap<DatabaseConnection, Promise<void>>();

  override beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // Kysely's own `BEGIN` (with the isolation level), which writes the statement before its first await.
    const begin = super.beginTransaction(connection, settings);
    // Observed at commit or rollback; until then a failure must not count as unhandled.
    begin.catch(() => {});
    this.#begins.set(connection, begin);
    // The unit of work opening this transaction leaves its writes at commit to this driver.
    const writes = writesAtCommit.getStore();
    if (writes && writes.sentWithCommitOn === null) writes.sentWithCommitOn = connection;
    return Promise.resolve();
  }

  /** The writes left for the commit and the COMMIT, in one write; the first failure among them is the commit's. */
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const begin = this.#begins.get(connection);
    this.#begins.delete(connection);
    const writes = writesAtCommit.getStore();
    const statements = writes?.sentWithCommitOn === connection ? writes.statements.splice(0) : [];
    const sent = statements.map((statement) => connection.executeQuery(statement));
    const commit = super.commitTransaction(connection);
    for (const pending of [begin, ...sent, commit]) pending?.catch(() => {});
    await begin;
    // A failed write aborted the transaction, and COMMIT then only rolled it back: its error is the one to report.
    for (const pending of sent) await pending;
    await commit;
  }

  // Kysely's declaration names its unexported connection class here; what it is given is what it handed out.
  override async rollbackTransaction(connection: Parameters<PostgresDriver['rollbackTransaction']>[0]): Promise<void> {
    const begin = this.#begins.get(connection);
    this.#begins.delete(connection);
    await begin?.catch(() => {});
    await super.rollbackTransaction(connection);
  }
}

/** `PostgresDialect` with `PipelinedBeginDriver`; its pool's clients must have `pipeline: true`. */
export class PipelinedBeginDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new PipelinedBeginDriver(this.#config);
  }
}

/**
 * A pool client whose statements sent in one tick leave in one write: `BEGIN` and the statement behind it reach
 * Postgres together, which then answers both at once; two writes would wake the backend and then the API twice.
 */
export class PipeliningClient extends PreparingClient {
  #corked = false;

  override query(...args: any[]): any {
    if (!this.#corked && this.pipeline) {
      const stream = this.connection.stream;
      stream.cork();
      this.#corked = true;
      process.nextTick(() => {
        this.#corked = false;
        stream.uncork();
      });
    }
    return Reflect.apply(super.query, this, args);
  }
}
