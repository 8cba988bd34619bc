import type { CustomerRecords, ErasureCounts } from '@garage/domain';
import type { Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';

interface CustomerOptions extends JsonOption {
  garage: string;
  email: string;
}

const summary = (records: CustomerRecords): string =>
  `${records.appointments.length} appointments, ${records.leads.length} leads, ${records.quotes.length} quotes`;

const counted = (counts: ErasureCounts): string =>
  `${counts.appointments} appointments, ${counts.leads} leads, ${counts.quotes} quotes, ${counts.events} events`;

/** A person's data held by a garage: what it holds, and forgetting it (docs/operators/personal-data.md). */
export const registerCustomer = (program: Command, ctx: CliContext): void => {
  const customer = program
    .command('customer')
    .description("what a garage holds about a person (GDPR articles 15 and 17): export it, erase it");

  customer
    .command('export')
    .description('every appointment, lead and quote of the garage naming that email, live and sandbox apart')
    .requiredOption('--garage <slug>', 'garage slug')
    .requiredOption('--email <email>', "the person's email (compared without regard to case)")
    .option('--json', 'print one JSON document: {"live": {"appointments", "leads", "quotes"}, "sandbox": {…}}')
    .action(async (options: CustomerOptions) => {
      const found = await ctx.withAdmin((admin) => admin.exportCustomerData({ garageSlug: options.garage, email: options.email }));
      ctx.print(options, found, () => `Live: ${summary(found.live)}\nSandbox: ${summary(found.sandbox)}`);
    });

  customer
    .command('erase')
    .description('replace that person\'s name, email, phone and free text with "[erased]", stored events included; records the erasure without the email')
    .requiredOption('--garage <slug>', 'garage slug')
    .requiredOption('--email <email>', "the person's email (compared without regard to case)")
    .option('--json', 'print one JSON document: {"erasedAt", "live": {"appointments", "leads", "quotes", "events"}, "sandbox": {…}}')
    .action(async (options: CustomerOptions) => {
      const erased = await ctx.withAdmin((admin) => admin.eraseCustomerData({ garageSlug: options.garage, email: options.email }));
      ctx.print(options, erased, () => `Erased at ${erased.erasedAt}\nLive: ${counted(erased.live)}\nSandbox: ${counted(erased.sandbox)}`);
    });
};
