import { randomUUID } from 'node:crypto';
import {
  DuplicateError,
  InvalidReferenceError,
  systemClock,
  type Appointment,
  type AppointmentRepository,
  type BookedInterval,
  type BookingLockKey,
  type BookingTransaction,
  type BookingTx,
  type Clock,
  type NewAppointment,
} from '@garage/domain';

export interface InMemoryBookingOptions {
  clock?: Clock;
  /** The foreign key on products; every product exists by default. */
  productExists?: (garageId: string, productId: string) => boolean;
  /**
   * Turns the booking lock off. Only for proving that a concurrency test fails without it; never a valid adapter.
   */
  withoutLock?: boolean;
}

export interface InMemoryBooking {
  /** Autocommit access, as outside any transaction. */
  appointments: AppointmentRepository;
  bookingTx: BookingTx;
  /** Every committed appointment, in commit order. */
  committed(): Appointment[];
}

/** Lets other callbacks run between steps, so that concurrent use interleaves as it would against a database. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * In-memory `AppointmentRepository` and `BookingTx` with the semantics their ports document: overlap is
 * `startsAt < to && endsAt > from`; `(integrationId, externalRef)` is unique when `externalRef` is not null
 * (DUPLICATE); products must exist (INVALID_REFERENCE); a transaction's writes are visible to itself, published on
 * success and dropped on failure; `run`s with the same `(garageId, localDate)` execute one at a time, in call order.
 */
export const makeInMemoryBooking = ({
  clock = systemClock,
  productExists = () => true,
  withoutLock = false,
}: InMemoryBookingOptions = {}): InMemoryBooking => {
  const rows: Appointment[] = [];
  const locks = new Map<string, Promise<unknown>>();

  const overlapping = (source: readonly Appointment[], garageId: string, from: Date, to: Date): BookedInterval[] =>
    source
      .filter((a) => a.garageId === garageId && a.startsAt < to && a.endsAt > from)
      .map((a) => ({ startsAt: new Date(a.startsAt), endsAt: new Date(a.endsAt) }));

  const assertUnique = (visible: readonly Appointment[], input: NewAppointment) => {
    if (
      input.externalRef !== null &&
      visible.some((a) => a.integrationId === input.integrationId && a.externalRef === input.externalRef)
    ) {
      throw new DuplicateError('externalRef is already used by this integration');
    }
  };

  const insert = (visible: readonly Appointment[], input: NewAppointment): Appointment => {
    assertUnique(visible, input);
    const unknown = input.productIds.find((id) => !productExists(input.garageId, id));
    if (unknown !== undefined) throw new InvalidReferenceError(`Product ${unknown} does not exist for this garage`);
    return structuredClone({ ...input, id: randomUUID(), createdAt: clock.now() });
  };

  const repositoryOver = (view: () => readonly Appointment[], write: (a: Appointment) => void): AppointmentRepository => ({
    async listOverlapping(garageId, from, to) {
      await tick();
      return overlapping(view(), garageId, from, to);
    },
    async create(input) {
      await tick();
      const appointment = insert(view(), input);
      write(appointment);
      return structuredClone(appointment);
    },
  });

  const transaction = async <T>(work: (tx: BookingTransaction) => Promise<T>): Promise<T> => {
    const staged: Appointment[] = [];
    const result = await work({ appointments: repositoryOver(() => [...rows, ...staged], (a) => staged.push(a)) });
    // A unique index also sees rows committed by others meanwhile (autocommit, other dates): check at commit too.
    for (const a of staged) assertUnique(rows, a);
    rows.push(...staged);
    return result;
  };

  return {
    appointments: repositoryOver(() => rows, (a) => rows.push(a)),
    bookingTx: {
      run<T>(key: BookingLockKey, work: (tx: BookingTransaction) => Promise<T>): Promise<T> {
        if (withoutLock) return transaction(work);
        const name = `${key.garageId}|${key.localDate}`;
        const previous = locks.get(name) ?? Promise.resolve();
        const current = previous.then(() => transaction(work));
        const settled = current.catch(() => undefined);
        locks.set(name, settled);
        void settled.then(() => {
          if (locks.get(name) === settled) locks.delete(name);
        });
        return current;
      },
    },
    committed: () => structuredClone(rows),
  };
};
