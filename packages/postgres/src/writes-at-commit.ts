import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection } from 'kysely';

/**
 * Statements that a unit of work's transaction writes when it commits rather than when they are made: writes whose
 * result nobody waits for (the outbox's event). Where the driver can (`PipelinedBeginDriver`), they leave in one
 * write with the COMMIT, which spares the transaction a round trip (issue 18); otherwise the unit of work runs them
 * just before committing. Either way they belong to the transaction: if one fails, nothing of it is committed.
 */
export interface WritesAtCommit {
  statements: CompiledQuery[];
  /** The connection whose driver took them on at BEGIN, to send them with its COMMIT; null: the unit of work runs them. */
  sentWithCommitOn: DatabaseConnection | null;
}

/**
 * The writes of the unit of work whose transaction is being opened or committed on this async path. A transaction
 * opened by other code on the same path (another connection) is no claimant: the driver matches the connection.
 */
export const writesAtCommit = new AsyncLocalStorage<WritesAtCommit>();
