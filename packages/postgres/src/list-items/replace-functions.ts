import { sql, type Kysely } from 'kysely';

/**
 * What a generated list-items migration does (docs/contributors/adding-a-list-field.md): replaces the lists' trigger
 * functions with those generated from the item shapes, and queues the tables whose rendering changed for
 * `renderListItemsAgain`, which renders their existing rows again in batches after the migrations commit. Replacing a
 * function takes no lock on its table; rows written from now on are rendered by the new one.
 */
export const replaceListItemFunctions = async (
  db: Kysely<unknown>,
  generation: string,
  functions: Readonly<Record<string, string>>,
  rerender: readonly string[],
): Promise<void> => {
  await sql`
    create table if not exists list_item_renders (
      generation text not null,
      table_name text not null,
      after_key uuid,
      done_at timestamptz,
      primary key (generation, table_name)
    )`.execute(db);
  for (const statement of Object.values(functions)) await sql.raw(statement).execute(db);
  for (const table of rerender) {
    await sql`insert into list_item_renders (generation, table_name) values (${generation}, ${table})`.execute(db);
  }
};
