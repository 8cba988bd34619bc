/** The id format of every resource (docs/reference/contract.md §1: ids are UUIDs), in any version and either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids reach the domain from URLs and bodies; a malformed one is simply unknown, never a database error. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The time, in milliseconds since the epoch, in the first 48 bits of a UUIDv7 in its canonical form; else null. */
export const uuidV7Time = (id: string): number | null => (UUID_V7.test(id) ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : null);
