import t from 'tap';
import { Kysely, PostgresDialect, RawNode, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { makeImportProducts, makeImportStock, type ProductListQuery } from '@garage/domain';
import { newGarage, productRow } from '@garage/domain/testing';
import { createTestDatabase } from '@garage/postgres/testing';
import { makeRenderedLists, makeRepositories, makeUnitOfWork, type Database } from '../src/index.js';

const IMPORTED = 3_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * Real Postgres only: the planner and its statistics are the subject. A new installation's tables have never been
 * analyzed; right after a garage imports its catalog, Postgres would still guess a handful of rows for it (a default
 * selectivity of each condition) and read a sync page through a bitmap scan and a sort of every matching row, the
 * outside benchmark's 8–30 ms per page. The import's unit of work refreshes the statistics once it commits, so the page
 * is read from the index in order and the read stops after `limit` rows.
 */
t.test('a sync page right after an import reads the (garage, updated_at, id) index in order', async (t) => {
  const database = await createTestDatabase('pgstats');
  t.teardown(() => database.drop());
  const { db, pool } = database.handle;
  if (!pool) throw new Error('a Postgres test database has a pool');
  const repos = makeRepositories(db);
  const uow = makeUnitOfWork(db);

  const garage = await newGarage(repos);
  const before = new Date(Date.now() - 60_000);
  const rows = Array.from({ length: IMPORTED }, (_, i) => productRow(i + 1));
  await makeImportProducts({ garages: repos.garages, uow })(garage.slug, rows);
  await makeImportStock({ garages: repos.garages, uow })(garage.slug, rows.map((r) => ({ sku: r.sku, quantity: 3 })));

  // The SQL the API's page read sends, captured as Kysely compiles it, then explained with its own parameters.
  const sent: CompiledQuery[] = [];
  const recording = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void sent.push(event.query) });
  const page: ProductListQuery = { garageId: garage.id, limit: 100, after: null, updatedSince: before, sku: null, includeInactive: true };
  t.equal((await makeRenderedLists(recording).products.list(page)).length, 100, 'the page is full');
  const query = sent.at(-1);
  if (!query) throw new Error('the page read sent no query');
  const { rows: explained } = await pool.query(`explain (format json) ${query.sql}`, [...query.parameters]);
  const nodes = nodesOf((explained[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);

  t.same(
    nodes.filter((n) => n['Relation Name'] === 'products').map((n) => [n['Node Type'], n['Index Name']]),
    [['Index Scan', 'products_sync_idx']],
    'the page is read through the (garage_id, updated_at, id) index',
  );
  t.notOk(nodes.some((n) => n['Node Type'] === 'Sort'), 'no sort: the index gives the order');

  const { rows: analyzed } = await pool.query(
    `select relname from pg_class where relname in ('products', 'stock') and reltuples >= $1 order by relname`,
    [IMPORTED],
  );
  t.same(analyzed.map((r) => r.relname), ['products', 'stock'], 'the planner knows how many rows both written tables hold');
});

t.test('a small import leaves the statistics to autovacuum', async (t) => {
  const database = await createTestDatabase('pgstats');
  t.teardown(() => database.drop());
  const { db, pool } = database.handle;
  if (!pool) throw new Error('a Postgres test database has a pool');
  const repos = makeRepositories(db);
  const garage = await newGarage(repos);
  await makeImportProducts({ garages: repos.garages, uow: makeUnitOfWork(db) })(garage.slug, [productRow(1), productRow(2)]);
  const { rows } = await pool.query(`select reltuples from pg_class where relname = 'products'`);
  t.ok(Number(rows[0].reltuples) < 0, 'products was never analyzed: two rows are not worth an ANALYZE');
});

t.test('a refresh that fails is reported, and the import stays committed', async (t) => {
  const database = await createTestDatabase('pgstats');
  t.teardown(() => database.drop());
  const { db } = database.handle;
  const repos = makeRepositories(db);
  const garage = await newGarage(repos);
  // Stands for what makes ANALYZE fail in production (a statement timeout on a huge table), through Kysely's plugin API.
  const analyzeFails: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (RawNode.is(node) && node.sqlFragments.join('').trimStart().startsWith('analyze')) throw new Error('canceling statement due to statement timeout');
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const reported: { message: string; tables: readonly string[] }[] = [];
  const uow = makeUnitOfWork(db.withPlugin(analyzeFails), {
    onStatisticsNotRefreshed: (err, tables) => reported.push({ message: (err as Error).message, tables }),
  });
  const rows = Array.from({ length: 600 }, (_, i) => productRow(i + 1));
  await makeImportProducts({ garages: repos.garages, uow })(garage.slug, rows);
  t.same(reported, [{ message: 'canceling statement due to statement timeout', tables: ['products', 'stock'] }], 'the failure is told, with the tables the import wrote');
  const imported = await db.selectFrom('products').where('garage_id', '=', garage.id).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  t.equal(Number(imported.n), rows.length, 'the import is committed');
});
