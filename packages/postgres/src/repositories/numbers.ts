/** bigint, numeric and count() arrive as strings on pg and as numbers on PGlite. */
export const toNumber = (value: string | number | bigint): number => Number(value);
