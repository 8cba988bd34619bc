/** The tables a retention applies to, as the retention job needs them (docs/operators/retention.md). */
export interface RetentionStore {
  /**
   * Deletes at most `limit` rows of `table` dated at or before `before`, oldest first, in short autocommit statements
   * of at most `limit` rows each; returns how many it deleted (fewer than `limit`: none is left). Runs safely beside
   * another run of itself and beside the traffic.
   */
  purgeBatch(table: string, before: Date, limit: number): Promise<number>;
  /** The date of `table`'s oldest row (as `purgeBatch` dates rows), or null when it is empty. */
  oldestRowAt(table: string): Promise<Date | null>;
}
