import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes for 256 ids, drawn at once: one call to the system's generator per 256 ids instead of one per id. */
const pool = new Uint8Array(16 * 256);
let used = pool.length;
const sixteenRandomBytes = (): Uint8Array => {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
};
const V7_OPTIONS = { rng: sixteenRandomBytes };

/**
 * A request id the API makes: a UUIDv7, whose first 48 bits are the time in milliseconds. The request log's index by
 * request id then grows at its end, as the table does, instead of taking each record at a random place of an index as
 * large as the log (a quarter of Postgres's work per record, and pages read back from disk once the index outgrows
 * memory). Each id still holds 73 random bits.
 */
export const newRequestId = (): string => v7(V7_OPTIONS);
