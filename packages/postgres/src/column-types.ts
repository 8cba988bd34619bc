import pg from 'pg';

/**
 * How the adapter's pools parse what Postgres sends: pg's own parsers, except `date`, which stays the `YYYY-MM-DD`
 * text Postgres wrote. pg would make it a JS Date at local midnight, which the process time zone then shifts to
 * another day. Given to each pool (pg's `types` option) rather than registered for the whole process, so that other
 * pg clients in the process keep pg's defaults.
 */
export const columnTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.DATE && format !== 'binary' ? (value: string) => value : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** The same rule for PGlite, whose own parsers also make a `date` a JS Date. */
export const pgliteParsers = { [pg.types.builtins.DATE]: (value: string) => value };
