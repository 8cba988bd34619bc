import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Appointment } from '../entities/appointment.js';
import { DuplicateError, InvalidReferenceError } from '../errors.js';
import type { AppointmentReader, AppointmentRepository, NewAppointment } from '../booking/appointment-repository.port.js';
import type { BookingLockKey } from '../booking/booking-lock.port.js';
import type { BookedInterval } from '../booking/occupancy.js';
import { systemClock, type Clock } from '../ports/clock.port.js';
import type { OutboxEvent } from '../ports/outbox.port.js';
import type { Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';

export interface InMemoryBookingOptions {
  clock?: Clock;
  /** The foreign key on products; every product exists by default. */
  productExists?: (garageId: string, productId: string) => boolean;
  /**
   * Turns the booking lock off. Only for proving that a concurrency test fails without it; never a valid adapter.
   */
  withoutLock?: boolean;
  /**
   * The methods of other members of the transaction that a use case under test reads (garages, products, ...), or
   * replaces (an outbox that fails). Any other method rejects, naming itself.
   */
  others?: { [K in Exclude<keyof Transaction, 'appointments' | 'bookingLocks'>]?: Partial<Transaction[K]> };
}

export interface InMemoryBooking {
  uow: UnitOfWork;
  /** Autocommit reads, as outside any transaction. */
  appointments: AppointmentReader;
  /** Every committed appointment, in commit order. */
  committed(): Appointment[];
  /** Every committed outbox event, in commit order. */
  events(): OutboxEvent[];
}

/** Lets other callbacks run between steps, so that concurrent use interleaves as it would against a database. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A member of the transaction with the methods the test provided; using any other is a mistake in the test. */
const provided = <T extends object>(name: string, methods: Partial<T> = {}): T =>
  new Proxy(methods as T, {
    get: (target, method) =>
      Reflect.get(target, method) ??
      (() => Promise.reject(new Error(`in-memory transaction: ${name}.${String(method)} is not provided`))),
  });

/**
 * An in-memory `UnitOfWork` over appointments, with the semantics the ports document: overlap is
 * `startsAt < to && endsAt > from`; `(integrationId, externalRef)` is unique when `externalRef` is not null
 * (DUPLICATE); products must exist (INVALID_REFERENCE); a transaction's writes and events are visible to itself,
 * published on success and dropped on failure; booking locks of the same `(garageId, localDate)` are held one at a
 * time, in request order, until the holder's transaction ends; a `run` inside another joins it.
 */
export const makeInMemoryBooking = ({
  clock = systemClock,
  productExists = () => true,
  withoutLock = false,
  others = {},
}: InMemoryBookingOptions = {}): InMemoryBooking => {
  const rows: Appointment[] = [];
  const published: OutboxEvent[] = [];
  const locks = new Map<string, Promise<void>>();
  const open = new AsyncLocalStorage<Transaction>();

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

  const readerOver = (view: () => readonly Appointment[]): AppointmentReader => ({
    async listOverlapping(garageId, from, to) {
      await tick();
      return overlapping(view(), garageId, from, to);
    },
  });

  const repositoryOver = (view: () => readonly Appointment[], write: (a: Appointment) => void): AppointmentRepository => ({
    ...readerOver(view),
    async create(input) {
      await tick();
      const appointment = insert(view(), input);
      write(appointment);
      return structuredClone(appointment);
    },
  });

  /** Waits for the previous holder of `key`, and returns the release of this holder. */
  const acquire = async (key: BookingLockKey): Promise<() => void> => {
    const name = `${key.garageId}|${key.localDate}`;
    const previous = locks.get(name) ?? Promise.resolve();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => held);
    locks.set(name, chained);
    await previous;
    return () => {
      release();
      if (locks.get(name) === chained) locks.delete(name);
    };
  };

  const transaction = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const staged: Appointment[] = [];
    const events: OutboxEvent[] = [];
    const releases: (() => void)[] = [];
    const tx: Transaction = {
      garages: provided('garages', others.garages),
      integrations: provided('integrations', others.integrations),
      products: provided('products', others.products),
      stock: provided('stock', others.stock),
      vehicles: provided('vehicles', others.vehicles),
      quotes: provided('quotes', others.quotes),
      leads: provided('leads', others.leads),
      idempotencyRecords: provided('idempotencyRecords', others.idempotencyRecords),
      outbox: provided('outbox', { enqueue: async (event) => void events.push(structuredClone(event)), ...others.outbox }),
      appointments: repositoryOver(() => [...rows, ...staged], (a) => staged.push(a)),
      bookingLocks: {
        acquire: async (key) => {
          if (!withoutLock) releases.push(await acquire(key));
        },
      },
    };
    try {
      const result = await open.run(tx, () => work(tx));
      // A unique index also sees rows committed by others meanwhile (other dates): check at commit too.
      for (const a of staged) assertUnique(rows, a);
      rows.push(...staged);
      published.push(...events);
      return result;
    } finally {
      for (const release of releases) release();
    }
  };

  return {
    uow: {
      run: (work) => {
        const outer = open.getStore();
        return outer ? work(outer) : transaction(work);
      },
    },
    appointments: readerOver(() => rows),
    committed: () => structuredClone(rows),
    events: () => structuredClone(published),
  };
};
