import { sql, type RawBuilder } from 'kysely';

/**
 * The pieces of an `insert … on conflict do update` that touches a row only when the import changes it:
 * `set` copies each column from `excluded`, and `changed` is true when any of them differs from the stored row.
 * Rows that do not change keep their `updated_at`, so a re-import does not make every connector resync.
 */
export const upsertChanges = <C extends string>(table: string, columns: readonly C[]) => {
  const stored = columns.map((c) => sql.ref(`${table}.${c}`));
  const proposed = columns.map((c) => sql.ref(`excluded.${c}`));
  return {
    // `any`: each reference has its own column's type, which Kysely cannot infer from a name built at runtime.
    set: Object.fromEntries(columns.map((c, i) => [c, proposed[i]])) as Record<C, RawBuilder<any>>,
    changed: sql<boolean>`(${sql.join(stored)}) is distinct from (${sql.join(proposed)})`,
  };
};
