import { APPOINTMENT_STATUSES, GARAGE_STATUSES, type AppointmentStatus } from '@garage/domain';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';
import { parseUuid } from '../options.js';

interface ListOptions extends JsonOption {
  garage: string;
  from?: string;
  to?: string;
  status?: AppointmentStatus;
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return value as T;
  };

export const registerAppointment = (program: Command, ctx: CliContext): void => {
  const appointment = program.command('appointment').description("the garage's side of appointments: list them, set their status");

  appointment
    .command('list')
    .description("the garage's appointments, every status, ordered by last change (docs/reference/contract.md §4.6)")
    .requiredOption('--garage <slug>', 'garage slug')
    .option('--from <date>', 'first local date of the start, YYYY-MM-DD')
    .option('--to <date>', 'last local date of the start, YYYY-MM-DD')
    .option('--status <status>', `one of ${APPOINTMENT_STATUSES.join(', ')}`, oneOf(APPOINTMENT_STATUSES))
    .option('--json', 'print one JSON document: [appointment]')
    .action(async (options: ListOptions) => {
      const appointments = await ctx.withAdmin((admin) =>
        admin.listAppointments({ garageSlug: options.garage, from: options.from ?? null, to: options.to ?? null, status: options.status ?? null }),
      );
      ctx.print(options, appointments, () =>
        appointments.length === 0
          ? 'No appointments.'
          : appointments.map((a) => `${a.id}  ${a.startsAt}  ${a.durationMinutes} min  ${a.status.padEnd(9)}  ${a.customer.name}`).join('\n'),
      );
    });

  appointment
    .command('set-status')
    .description('confirm, complete, mark a no-show or cancel an appointment; webhooks tell the connectors')
    .argument('<id>', 'appointment id', parseUuid)
    .argument('<status>', GARAGE_STATUSES.join('|'), oneOf(GARAGE_STATUSES))
    .option('--reason <reason>', 'why it is cancelled (with cancelled only)')
    .option('--json', 'print one JSON document: {"id", "status"}')
    .action(async (id: string, status: string, options: JsonOption & { reason?: string }) => {
      const changed = await ctx.withAdmin((admin) => admin.setAppointmentStatus({ appointmentId: id, status, reason: options.reason ?? null }));
      ctx.print(options, { id: changed.id, status: changed.status }, () => `Appointment ${changed.id} is ${changed.status}`);
    });
};
