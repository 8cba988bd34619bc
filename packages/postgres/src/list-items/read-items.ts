import { fieldsOf, type ItemOf, type ItemShape } from '@garage/domain';
import { sql, type AliasedRawBuilder } from 'kysely';
import { columnOf, type ListItemTable } from './list-item-tables.js';

/** What a list's query selects for its items: each field's column, named after the field. */
export const itemSelection = <S extends ItemShape>(list: ListItemTable<S>, table: string = list.table): AliasedRawBuilder<unknown, string>[] =>
  fieldsOf(list.shape).map(([name]) => sql.ref(list.sources?.[name]?.read ?? `${table}.${columnOf(name)}`).as(name));

/**
 * Reads a selected row as the domain's item: bigint and numeric arrive as strings on pg (numbers on PGlite), every
 * other kind as the driver's type parsers give it; keys in the shape's order.
 */
export const itemReader = <S extends ItemShape>(shape: S): ((row: Record<string, unknown>) => ItemOf<S>) => {
  const fields = fieldsOf(shape).map(([name, field]) => ({ name, numeric: field.kind === 'integer' || field.kind === 'decimal' }));
  return (row) => {
    const item: Record<string, unknown> = {};
    for (const { name, numeric } of fields) {
      const value = row[name];
      item[name] = numeric && value !== null ? Number(value) : value;
    }
    return item as ItemOf<S>;
  };
};
