import type { Command } from 'commander';
import { DEFAULT_BOOKING, DEFAULT_OPENING_HOURS, type CreateGarageCommand } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { parseInteger } from '../options.js';

/** Commander names each option after the use-case's field (`--slot-minutes` → `slotMinutes`). */
type CreateOptions = CreateGarageCommand & JsonOption;

interface CloseOptions extends JsonOption {
  garage: string;
  from: string;
  to: string;
  reason?: string;
}

export const registerGarage = (program: Command, ctx: CliContext): void => {
  const garage = program.command('garage').description('create garages and close them on given dates');

  garage
    .command('create')
    .description('create a garage with its booking settings')
    .requiredOption('--slug <slug>', 'URL identifier: lowercase letters, digits and dashes')
    .requiredOption('--name <name>', 'display name')
    .option('--timezone <tz>', `IANA time zone (default ${DEFAULT_BOOKING.timezone})`)
    .option('--currency <code>', 'ISO 4217 currency (default EUR)')
    .option('--slot-minutes <n>', `booking grid in minutes (default ${DEFAULT_BOOKING.slotMinutes})`, parseInteger)
    .option('--capacity <n>', `appointments that may overlap any slot (default ${DEFAULT_BOOKING.capacity})`, parseInteger)
    .option('--hours <spec>', `weekly opening hours, e.g. "mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00" (default "${DEFAULT_OPENING_HOURS}")`)
    .option('--min-notice-minutes <n>', `minimum notice before an appointment (default ${DEFAULT_BOOKING.minNoticeMinutes})`, parseInteger)
    .option('--horizon-days <n>', `how far ahead appointments may be booked (default ${DEFAULT_BOOKING.horizonDays})`, parseInteger)
    .option('--json', 'print one JSON document: {"id", "slug"}')
    .action(async (options: CreateOptions) => {
      const { json, ...cmd } = options;
      const created = await ctx.withAdmin((admin) => admin.createGarage(cmd));
      ctx.print({ json }, { id: created.id, slug: created.slug }, () => `Created garage ${created.slug} (${created.id})`);
    });

  garage
    .command('close')
    .description('close a garage on a range of local dates (inclusive): no appointment can be booked then')
    .requiredOption('--garage <slug>', 'garage slug')
    .requiredOption('--from <date>', 'first closed date, YYYY-MM-DD')
    .requiredOption('--to <date>', 'last closed date, YYYY-MM-DD')
    .option('--reason <text>', 'why (for the garage staff)')
    .option('--json', 'print one JSON document: {"garage", "from", "to"}')
    .action(async (options: CloseOptions) => {
      const closure = await ctx.withAdmin((admin) =>
        admin.closeGarage({ garageSlug: options.garage, from: options.from, to: options.to, reason: options.reason ?? null }),
      );
      ctx.print(options, { garage: options.garage, from: closure.from, to: closure.to }, () =>
        `Garage ${options.garage} closed from ${closure.from} to ${closure.to}`,
      );
    });
};
