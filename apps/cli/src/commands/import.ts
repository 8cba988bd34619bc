import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ImportResult } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { CliError } from '../errors.js';
import type { AdminUseCases } from '@garage/composition';

type Importer = (admin: AdminUseCases) => (garageSlug: string, rows: unknown) => Promise<ImportResult>;

const KINDS: { name: string; key: string; rows: string; use: Importer }[] = [
  {
    name: 'products',
    key: 'sku',
    rows: '{sku, name, priceCents, description?, category?, brand?, currency?, vatRate?, unit?, active?}, upserted by sku',
    use: (admin) => admin.importProducts,
  },
  {
    name: 'stock',
    key: 'sku',
    rows: '{sku, quantity}; an unknown sku fails the whole import',
    use: (admin) => admin.importStock,
  },
  {
    name: 'vehicles',
    key: 'reference',
    rows: '{reference, make, model, year, mileageKm, fuel, gearbox, priceCents, version?, color?, description?, photos?, status?}, upserted by reference',
    use: (admin) => admin.importVehicles,
  },
];

/** Reads the file before touching the database, so that a typo in a path costs nothing. */
const readJson = async (file: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
};

export const registerImport = (program: Command, ctx: CliContext): void => {
  const group = program.command('import').description('import a JSON array file into a garage, in one transaction');
  for (const kind of KINDS) {
    group
      .command(kind.name)
      .description(`import ${kind.name}: rows ${kind.rows}`)
      .requiredOption('--garage <slug>', 'garage slug')
      .argument('<file>', 'JSON file holding an array of rows')
      .option('--json', `print one JSON document: {"upserted": N, "ids": {"<${kind.key}>": "<uuid>"}}`)
      .action(async (file: string, options: JsonOption & { garage: string }) => {
        const rows = await readJson(file);
        const result = await ctx.withAdmin((admin) => kind.use(admin)(options.garage, rows));
        ctx.print(options, result, () => `Imported ${result.upserted} ${kind.name} into garage ${options.garage}`);
      });
  }
};
