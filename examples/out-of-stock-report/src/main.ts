import { connectPostgres, makeRepositories } from '@garage/postgres';
import { outOfStockReport } from './out-of-stock.js';

/**
 * The nightly out-of-stock report of one garage (docs/workers/building-on-the-domain.md):
 *   DATABASE_URL=postgres://… pnpm example:out-of-stock <garage-slug> [--json]
 * prints the active products whose stock is 0, one per line (or one JSON object with --json), and exits 0; an
 * unknown garage exits 1.
 */
const [slug, ...flags] = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL;
if (!slug || !databaseUrl) {
  process.stderr.write('usage: DATABASE_URL=postgres://… out-of-stock-report <garage-slug> [--json]\n');
  process.exit(2);
}

const database = connectPostgres({ connectionString: databaseUrl, max: 2, applicationName: 'out-of-stock-report' });
try {
  const repos = makeRepositories(database.db);
  const garage = await repos.garages.findBySlug(slug);
  if (!garage) {
    process.stderr.write(`no garage with slug ${slug}\n`);
    process.exitCode = 1;
  } else {
    const report = await outOfStockReport(repos, garage.id);
    if (flags.includes('--json')) {
      process.stdout.write(`${JSON.stringify({ garage: slug, ...report })}\n`);
    } else {
      process.stdout.write(`${garage.name}: ${report.outOfStock.length} of ${report.products} active products out of stock\n`);
      for (const { sku, name } of report.outOfStock) process.stdout.write(`${sku}\t${name}\n`);
    }
  }
} catch (err) {
  // A nightly job's log gets one line; the scheduler sees the exit code.
  process.stderr.write(`out-of-stock report failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
