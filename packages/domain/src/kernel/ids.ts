/** The id format of every resource (docs/reference/contract.md §1: ids are UUIDs), in any version and either case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids reach the domain from URLs and bodies; a malformed one is simply unknown, never a database error. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
