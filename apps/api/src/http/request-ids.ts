import { randomFillSync } from 'node:crypto';
import { stringify, v7 } from 'uuid';

/** Random bytes for 256 ids, drawn at once: one call to the system's generator per 256 ids instead of one per id. */
const pool = new Uint8Array(16 * 256);
let used = pool.length;
/** The next id's random bytes, and its bytes: reused, so that an id allocates nothing but its text. */
const random = new Uint8Array(16);
const bytes = new Uint8Array(16);
const V7_OPTIONS = { random };
const nextRandomBytes = (): void => {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  for (let i = 0; i < 16; i += 1) random[i] = pool[used + i]!;
  used += 16;
};

/**
 * A request id the API makes: a UUIDv7, whose first 48 bits are the time in milliseconds. The request log's index by
 * request id then grows at its end, as the table does, instead of taking each record at a random place of an index as
 * large as the log (a quarter of Postgres's work per record, and pages read back from disk once the index outgrows
 * memory). Each id still holds 73 random bits.
 */
export const newRequestId = (): string => {
  nextRandomBytes();
  return stringify(v7(V7_OPTIONS, bytes, 0));
};
