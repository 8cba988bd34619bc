/** A string as a SQL literal, for SQL text written from the domain's constants (never from input). */
export const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** `column not in (...)`: Postgres reads a list of one as `column <> value`, the form an index predicate keeps. */
export const notIn = (column: string, values: readonly string[]): string => `${column} not in (${values.map(literal).join(', ')})`;
