import { fieldsOf, type FieldShape } from '@garage/domain';
import { columnOf, LIST_ITEM_TABLES, type ListItemTable } from './list-item-tables.js';

/**
 * The SQL that renders a value of each kind as JSON.stringify writes it (docs/operators/performance.md, "List
 * pages"): strings escaped by `to_json` (it escapes the characters JSON.stringify escapes, the same way), numbers as
 * JavaScript prints them (`trim_scale` drops a numeric's trailing zeros: 20.00 is `20`, 5.50 is `5.5`), times as
 * `Date.prototype.toISOString` writes the millisecond the driver would have parsed (UTC, truncated to milliseconds),
 * arrays of strings without the spaces jsonb's text has.
 */
const RENDER: Record<FieldShape['kind'], (value: string) => string> = {
  uuid: (value) => `'"' || ${value}::text || '"'`,
  text: (value) => `to_json(${value})::text`,
  integer: (value) => `${value}::text`,
  decimal: (value) => `trim_scale(${value})::text`,
  boolean: (value) => `case when ${value} then 'true' when not ${value} then 'false' end`,
  time: (value) => `'"' || to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`,
  texts: (value) =>
    `case when ${value} is not null then '[' || coalesce((select string_agg(to_json(element)::text, ',' order by n) from jsonb_array_elements_text(${value}) with ordinality as e(element, n)), '') || ']' end`,
};

const renderField = (shape: FieldShape, value: string): string =>
  shape.nullable ? `coalesce(${RENDER[shape.kind](value)}, 'null')` : RENDER[shape.kind](value);

/** The expression that renders a row of `list` (as `new`) into its item: the shape's keys in order, no spaces. */
export const itemExpression = (list: ListItemTable): string =>
  fieldsOf(list.shape)
    .map(([name, shape], i) => {
      const value = list.sources?.[name]?.trigger ?? `new.${columnOf(name)}`;
      return `'${i === 0 ? '{' : ','}${JSON.stringify(name)}:' || ${renderField(shape, value)}`;
    })
    .concat(`'}'`)
    .join('\n    || ');

/** The trigger function that keeps `list_item` of each row of `list` rendered (migration 0011 made the triggers). */
export const listItemFunction = (list: ListItemTable): string =>
  `create or replace function ${list.table}_list_item() returns trigger language plpgsql as $$
begin
  new.list_item := ${itemExpression(list)};
  return new;
end
$$`;

/** The trigger function of every list, by table: what the latest generated migration must hold. */
export const listItemFunctions = (): Record<string, string> =>
  Object.fromEntries(LIST_ITEM_TABLES.map((list) => [list.table, listItemFunction(list)]));
