/** Splits large imports so that one statement stays far below Postgres's 65535 bind parameters. */
export const chunks = <T>(rows: T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

/** The last row for each key: an import naming a key twice must not touch one row twice in one statement. */
export const lastByKey = <T>(rows: T[], key: (row: T) => string): T[] => [
  ...new Map(rows.map((row) => [key(row), row])).values(),
];
