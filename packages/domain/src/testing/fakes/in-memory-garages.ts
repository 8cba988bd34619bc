import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  DuplicateError,
  InvalidReferenceError,
  systemClock,
  type Clock,
  type Closure,
  type Garage,
  type GarageRepository,
  type Lead,
  type LeadRepository,
  type Quote,
  type QuoteRepository,
} from '../../index.js';

export interface InMemoryGarages {
  garages: GarageRepository;
  leads: LeadRepository & { all(): Lead[] };
  quotes: QuoteRepository;
}

/**
 * Garages with their closures, leads and quotes in memory, behaving as the Postgres adapter does (its contract suites
 * describe it): a taken slug is `DUPLICATE`, a lead names a vehicle of its garage, closures overlapping a date range are listed, a quote is numbered
 * `Q-<year>-<sequence>` in its garage's year and time zone, and only the first decision of a pending, unexpired quote
 * counts.
 */
export const makeInMemoryGarages = ({
  clock = systemClock,
  vehicleExists = async () => true,
}: {
  clock?: Clock;
  /** The foreign key of leads: whether a vehicle is one of the garage's (every vehicle is, by default). */
  vehicleExists?: (garageId: string, vehicleId: string) => Promise<boolean>;
} = {}): InMemoryGarages => {
  const garages = new Map<string, Garage>();
  const closures: Closure[] = [];
  const leads: Lead[] = [];
  const quotes = new Map<string, Quote & { tokenHash: string }>();
  const closuresOf = (garageId: string, from: string, to: string) =>
    closures.filter((c) => c.garageId === garageId && c.from <= to && c.to >= from).map((c) => ({ ...c }));
  const withoutToken = ({ tokenHash: _, ...quote }: Quote & { tokenHash: string }): Quote => structuredClone(quote);

  const garageRepository: GarageRepository = {
    async create(input) {
      if ([...garages.values()].some((g) => g.slug === input.slug)) throw new DuplicateError('A garage with this slug already exists');
      const garage: Garage = { id: randomUUID(), ...structuredClone(input), createdAt: clock.now() };
      garages.set(garage.id, garage);
      return structuredClone(garage);
    },
    async findBySlug(slug) {
      const garage = [...garages.values()].find((g) => g.slug === slug);
      return garage ? structuredClone(garage) : null;
    },
    async findById(id) {
      const garage = garages.get(id);
      return garage ? structuredClone(garage) : null;
    },
    async addClosure({ garageId, from, to, reason }) {
      if (!garages.has(garageId)) throw new InvalidReferenceError('Unknown garage');
      const closure: Closure = { id: randomUUID(), garageId, from, to, reason };
      closures.push(closure);
      return { ...closure };
    },
    async listClosures(garageId, from, to) {
      return closuresOf(garageId, from, to);
    },
    async findWithClosures(id, from, to) {
      const garage = garages.get(id);
      return garage ? { garage: structuredClone(garage), closures: closuresOf(id, from, to), readAt: clock.now() } : null;
    },
  };

  const leadRepository: InMemoryGarages['leads'] = {
    async create(input) {
      if (!garages.has(input.garageId) || !(await vehicleExists(input.garageId, input.vehicleId))) {
        throw new InvalidReferenceError('Unknown vehicle');
      }
      const lead: Lead = { id: randomUUID(), ...input, createdAt: clock.now() };
      leads.push(lead);
      return { ...lead };
    },
    all: () => leads.map((lead) => ({ ...lead })),
  };

  const quoteRepository: QuoteRepository = {
    async findByTokenHash(tokenHash) {
      const quote = [...quotes.values()].find((q) => q.tokenHash === tokenHash);
      return quote ? withoutToken(quote) : null;
    },
    async create(input) {
      const garage = garages.get(input.garageId);
      if (!garage) throw new InvalidReferenceError('Unknown garage');
      if ([...quotes.values()].some((q) => q.tokenHash === input.tokenHash)) throw new DuplicateError('A quote with this token already exists');
      const prefix = `Q-${DateTime.fromJSDate(clock.now(), { zone: garage.booking.timezone }).toFormat('yyyy')}-`;
      const last = [...quotes.values()]
        .filter((q) => q.garageId === garage.id && q.number.startsWith(prefix))
        .reduce((max, q) => Math.max(max, Number(q.number.slice(prefix.length))), 0);
      const quote = {
        id: randomUUID(),
        garageId: input.garageId,
        number: `${prefix}${String(last + 1).padStart(4, '0')}`,
        status: 'pending' as const,
        customerName: input.customerName,
        lines: structuredClone(input.lines),
        totalCents: input.totalCents,
        currency: input.currency,
        expiresAt: input.expiresAt,
        decidedAt: null,
        tokenHash: input.tokenHash,
      };
      quotes.set(quote.id, quote);
      return withoutToken(quote);
    },
    async decide(quoteId, decision) {
      const quote = quotes.get(quoteId);
      if (!quote || quote.status !== 'pending' || quote.expiresAt <= decision.at) return false;
      quotes.set(quoteId, { ...quote, status: decision.status, decidedAt: decision.at });
      return true;
    },
  };

  return { garages: garageRepository, leads: leadRepository, quotes: quoteRepository };
};
