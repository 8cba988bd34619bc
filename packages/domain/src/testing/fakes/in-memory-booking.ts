import { randomUUID } from 'node:crypto';
import {
  DuplicateError,
  InvalidReferenceError,
  hasRoom,
  holdsPlace,
  placesSpan,
  systemClock,
  type Appointment,
  type AppointmentListQuery,
  type AppointmentReader,
  type AppointmentRepository,
  type AvailabilityReader,
  type BookedInterval,
  type BookingWriter,
  type Clock,
  type DayVersions,
  type GarageRepository,
  type NewAppointment,
  type OutboxEvent,
  type Repositories,
  type Transaction,
  type UnitOfWork,
} from '../../index.js';

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
  /**
   * What a booking reads and writes outside a transaction: `others`' garages and products, and `bookings`, whose one
   * write runs as a transaction of its own.
   */
  repositories: Pick<Repositories, 'garages' | 'products' | 'bookings'>;
  /** Autocommit reads, as outside any transaction. */
  appointments: AppointmentReader;
  /** Every committed appointment, in commit order. */
  committed(): Appointment[];
  /** Every committed outbox event, in commit order. */
  events(): OutboxEvent[];
  /** How many transactions wait right now for a lock (booking or row) that another holds. */
  lockWaiters(): number;
  /**
   * Autocommit availability reads over the committed appointments and day versions, with the garage and its closures
   * from `garages`.
   */
  availabilityOver(garages: Pick<GarageRepository, 'findById' | 'listClosures'>): AvailabilityReader;
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
 * published on success and dropped on failure; booking locks of the same `(garageId, localDate)`, like the row
 * lock of `findForUpdate`, are held one at a time, in request order, until the holder's transaction ends; the
 * version of every date whose booking lock a transaction took moves up when it commits, with its writes; cancelled
 * appointments hold no place; every `run` is a transaction of its own.
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
  let waiting = 0;
  /** Day versions by `garageId|localDate`. */
  const versions = new Map<string, number>();

  /** The places held over `[from, to)`: appointments that hold a place (`holdsPlace`), as both readers see them. */
  const placesHeld = (source: readonly Appointment[], garageId: string, from: Date, to: Date): BookedInterval[] =>
    source
      .filter((a) => a.garageId === garageId && holdsPlace(a) && a.startsAt < to && a.endsAt > from)
      .map((a) => ({ startsAt: new Date(a.startsAt), endsAt: new Date(a.endsAt) }));

  const assertUnique = (visible: readonly Appointment[], input: NewAppointment) => {
    if (
      input.externalRef !== null &&
      visible.some((a) => a.integrationId === input.integrationId && a.externalRef === input.externalRef)
    ) {
      throw new DuplicateError('externalRef is already used by this integration');
    }
  };

  /** What the tables' constraints refuse of a new appointment: a reused `externalRef`, a product of no such garage. */
  const assertInsertable = (visible: readonly Appointment[], input: NewAppointment) => {
    assertUnique(visible, input);
    const unknown = input.productIds.find((id) => !productExists(input.garageId, id));
    if (unknown !== undefined) throw new InvalidReferenceError(`Product ${unknown} does not exist for this garage`);
  };

  const insert = (visible: readonly Appointment[], input: NewAppointment): Appointment => {
    assertInsertable(visible, input);
    const now = clock.now();
    return structuredClone({
      ...input,
      id: randomUUID(),
      status: 'booked' as const,
      createdAt: now,
      updatedAt: now,
      cancelledAt: null,
      cancellationReason: null,
    });
  };

  const versionsOf = (garageId: string, from: string, to: string): DayVersions => {
    const found = new Map<string, number>();
    for (const [key, version] of versions) {
      const [garage, date] = key.split('|') as [string, string];
      if (garage === garageId && from <= date && date <= to) found.set(date, version);
    }
    return found;
  };

  const after = (a: Appointment, q: AppointmentListQuery) =>
    q.after === null ||
    a.updatedAt.getTime() > q.after.sortValue.getTime() ||
    (a.updatedAt.getTime() === q.after.sortValue.getTime() && a.id > q.after.id);

  const readerOver = (view: () => readonly Appointment[]): AppointmentReader => ({
    async listOverlapping(garageId, from, to, excludeId) {
      await tick();
      return placesHeld(
        view().filter((a) => a.id !== excludeId),
        garageId,
        from,
        to,
      );
    },
    async findById(garageId, id) {
      await tick();
      const found = view().find((a) => a.id === id && a.garageId === garageId);
      return found ? structuredClone(found) : null;
    },
    async list(q) {
      await tick();
      return structuredClone(
        view()
          .filter(
            (a) =>
              a.garageId === q.garageId &&
              after(a, q) &&
              (q.updatedSince === null || a.updatedAt >= q.updatedSince) &&
              (q.startsFrom === null || a.startsAt >= q.startsFrom) &&
              (q.startsBefore === null || a.startsAt < q.startsBefore) &&
              (q.status === null || a.status === q.status) &&
              (q.externalRef === null || (a.integrationId === q.externalRef.integrationId && a.externalRef === q.externalRef.value)),
          )
          .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(0, q.limit),
      );
    },
  });

  /** Waits for the previous holder of the lock `name`, and returns the release of this holder. */
  const acquire = async (name: string): Promise<() => void> => {
    const holder = locks.get(name);
    const previous = holder ?? Promise.resolve();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => held);
    locks.set(name, chained);
    if (holder) {
      waiting += 1;
      await holder;
      waiting -= 1;
    }
    return () => {
      release();
      if (locks.get(name) === chained) locks.delete(name);
    };
  };

  const transaction = async <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const staged: Appointment[] = [];
    const changed = new Map<string, Appointment>();
    const view = () => [...rows.map((a) => changed.get(a.id) ?? a), ...staged];
    const events: OutboxEvent[] = [];
    const releases: (() => void)[] = [];
    const lockedDays = new Set<string>();
    const tx: Transaction = {
      garages: provided('garages', others.garages),
      integrations: provided('integrations', others.integrations),
      products: provided('products', others.products),
      stock: provided('stock', others.stock),
      vehicles: provided('vehicles', others.vehicles),
      quotes: provided('quotes', others.quotes),
      availability: provided('availability', others.availability),
      leads: provided('leads', others.leads),
      sandboxes: provided('sandboxes', others.sandboxes),
      idempotencyRecords: provided('idempotencyRecords', others.idempotencyRecords),
      outbox: provided('outbox', { enqueue: async (event) => void events.push(structuredClone(event)), ...others.outbox }),
      appointments: {
        ...readerOver(view),
        async create(input) {
          await tick();
          const appointment = insert(view(), input);
          staged.push(appointment);
          return structuredClone(appointment);
        },
        async findForUpdate(garageId, id) {
          if (!withoutLock) releases.push(await acquire(`row|${id}`));
          const found = view().find((a) => a.id === id && (garageId === null || a.garageId === garageId));
          return found ? structuredClone(found) : null;
        },
        async update(id, change) {
          await tick();
          const current = view().find((a) => a.id === id);
          if (!current) throw new Error(`in-memory appointments: no appointment ${id}`);
          const next = structuredClone({ ...current, ...change, updatedAt: clock.now() });
          const index = staged.findIndex((a) => a.id === id);
          if (index >= 0) staged[index] = next;
          else changed.set(id, next);
          return structuredClone(next);
        },
      } satisfies AppointmentRepository,
      bookings: {
        async bookIfRoom({ lock, capacity, slotMinutes, slots, appointment, event }) {
          await tx.bookingLocks.acquire(lock);
          const { from, to } = placesSpan(appointment.startsAt, slots, slotMinutes);
          if (!hasRoom({ capacity, slotMinutes }, slots, placesHeld(view(), lock.garageId, from, to))) return false;
          await tick();
          assertInsertable(view(), appointment);
          staged.push(structuredClone(appointment));
          await tx.outbox.enqueue(event);
          return true;
        },
      } satisfies BookingWriter,
      bookingLocks: {
        acquire: async (key) => {
          const day = `${key.garageId}|${key.localDate}`;
          if (!withoutLock) releases.push(await acquire(day));
          lockedDays.add(day);
        },
        async acquireAndListOverlapping(key, from, to, excludeId) {
          await this.acquire(key);
          return readerOver(view).listOverlapping(key.garageId, from, to, excludeId);
        },
      },
    };
    try {
      const result = await work(tx);
      // A unique index also sees rows committed by others meanwhile (other dates): check at commit too.
      for (const a of staged) assertUnique(rows, a);
      for (const [id, next] of changed) rows[rows.findIndex((a) => a.id === id)] = next;
      rows.push(...staged);
      for (const day of lockedDays) versions.set(day, (versions.get(day) ?? 0) + 1);
      published.push(...events);
      return result;
    } finally {
      for (const release of releases) release();
    }
  };

  return {
    uow: { run: transaction },
    repositories: {
      garages: provided('garages', others.garages),
      products: provided('products', others.products),
      bookings: { bookIfRoom: (request) => transaction((tx) => tx.bookings.bookIfRoom(request)) },
    },
    appointments: readerOver(() => rows),
    committed: () => structuredClone(rows),
    events: () => structuredClone(published),
    lockWaiters: () => waiting,
    availabilityOver: (garages) => ({
      findCalendars: (queries) =>
        Promise.all(
          queries.map(async ({ garageId, dates }) => {
            const garage = await garages.findById(garageId);
            if (!garage || !dates) return garage && { garage, closures: [], versions: new Map() };
            const closures = await garages.listClosures(garageId, dates.from, dates.to);
            return { garage, closures, versions: versionsOf(garageId, dates.from, dates.to) };
          }),
        ),
      async readPlaces(garageId, from, to, span) {
        await tick();
        // Versions and places of the same committed state, as one statement reads them.
        const places = placesHeld(rows, garageId, span.from, span.to);
        return { versions: versionsOf(garageId, from, to), places };
      },
    }),
  };
};
