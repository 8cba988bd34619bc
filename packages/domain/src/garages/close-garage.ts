import { DateTime } from 'luxon';
import type { Closure } from './garage.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from './garage-repository.port.js';
import { Checker, LOCAL_DATE } from '../kernel/validation.js';

const isDate = (value: string) => LOCAL_DATE.test(value) && DateTime.fromISO(value).isValid;

export const makeCloseGarage =
  ({ garages }: { garages: Pick<GarageRepository, 'findBySlug' | 'addClosure'> }) =>
  async (cmd: { garageSlug: string; from: string; to: string; reason?: string | null }): Promise<Closure> => {
    const check = new Checker();
    if (!isDate(cmd.from)) check.fail('/from', 'must be a date YYYY-MM-DD');
    if (!isDate(cmd.to)) check.fail('/to', 'must be a date YYYY-MM-DD');
    if (check.details.length === 0 && cmd.to < cmd.from) check.fail('/to', 'must not be before from');
    check.string('/reason', cmd.reason, { optional: true, max: 500 });
    check.throwIfAny('Invalid closure');
    const garage = await garages.findBySlug(cmd.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
    return garages.addClosure({ garageId: garage.id, from: cmd.from, to: cmd.to, reason: cmd.reason ?? null });
  };
