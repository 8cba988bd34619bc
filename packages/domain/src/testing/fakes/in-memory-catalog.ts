import { randomUUID } from 'node:crypto';
import {
  InvalidReferenceError,
  PRODUCT_DEFAULTS,
  systemClock,
  type Clock,
  type GarageRepository,
  type KeysetPosition,
  type ListVersionProbe,
  type Product,
  type ProductRepository,
  type StockItem,
  type StockRepository,
  type Vehicle,
  type VehicleRepository,
} from '../../index.js';

/** `(sortValue, id)` order, ids compared as Postgres compares uuids (their lowercase hex). */
const compare = (a: KeysetPosition, b: KeysetPosition): number =>
  a.sortValue.getTime() - b.sortValue.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One page of `items` in ascending (or descending) keyset order, strictly after `after`. */
const keysetPage = <T>(items: T[], positionOf: (item: T) => KeysetPosition, q: { after: KeysetPosition | null; limit: number }, descending = false): T[] => {
  const sign = descending ? -1 : 1;
  return items
    .filter((item) => q.after === null || sign * compare(positionOf(item), q.after) > 0)
    .sort((a, b) => sign * compare(positionOf(a), positionOf(b)))
    .slice(0, q.limit);
};

const changed = <T extends object>(before: T, after: T): boolean =>
  (Object.keys(after) as (keyof T)[]).some((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));

export interface InMemoryCatalog {
  products: ProductRepository;
  stock: StockRepository;
  vehicles: VehicleRepository;
  /** The lists' versions as the adapter's probe gives them: the newest `updatedAt` of a garage's rows, sold vehicles included. */
  listVersions: ListVersionProbe;
}

/**
 * The catalog and the fleet in memory (and the probe of their lists' versions), behaving as the Postgres adapter does (packages/postgres's contract suites
 * describe it): imports upsert by sku or reference and leave unchanged rows (and their `updatedAt`) alone, a new
 * product gets a stock row of 0, stock batches refuse unknown skus before writing, lists page in their keyset order.
 * For domain tests and for programs built on the domain package that want no database.
 */
export const makeInMemoryCatalog = ({
  clock = systemClock,
  garages,
}: {
  clock?: Clock;
  /** The garages writes must belong to (INVALID_REFERENCE otherwise); without it every garage exists. */
  garages?: Pick<GarageRepository, 'findById'>;
} = {}): InMemoryCatalog => {
  let lastWrite = 0;
  /** As the adapter's catalog clock: each write strictly later than the one before, so that no cursor skips it. */
  const writeTime = () => {
    lastWrite = Math.max(clock.nowMs(), lastWrite + 1);
    return new Date(lastWrite);
  };
  const garageOf = async (garageId: string) => {
    if (garages && !(await garages.findById(garageId))) throw new InvalidReferenceError('Unknown garage');
  };
  const products = new Map<string, Product & { garageId: string }>();
  const stock = new Map<string, { garageId: string; quantity: number; updatedAt: Date }>();
  const vehicles = new Map<string, Vehicle & { garageId: string }>();
  const productBySku = (garageId: string, sku: string) => [...products.values()].find((p) => p.garageId === garageId && p.sku === sku);
  const withoutGarage = <T extends { garageId: string }>({ garageId: _, ...item }: T): Omit<T, 'garageId'> => item;

  const productRepository: ProductRepository = {
    async list(q) {
      const listed = [...products.values()].filter(
        (p) =>
          p.garageId === q.garageId &&
          (q.includeInactive || p.active) &&
          (q.updatedSince === null || p.updatedAt >= q.updatedSince) &&
          (q.sku === null || p.sku === q.sku),
      );
      return keysetPage(listed, (p) => ({ sortValue: p.updatedAt, id: p.id }), q).map((p) => withoutGarage(p));
    },
    async findExistingIds(garageId, ids) {
      return ids.filter((id) => products.get(id)?.garageId === garageId);
    },
    async upsertMany(garageId, rows, defaultCurrency) {
      await garageOf(garageId);
      const at = writeTime();
      const ids: Record<string, string> = {};
      for (const row of rows) {
        const existing = productBySku(garageId, row.sku);
        const fields = {
          name: row.name,
          description: row.description ?? null,
          category: row.category ?? null,
          brand: row.brand ?? null,
          priceCents: row.priceCents,
          currency: row.currency ?? defaultCurrency,
          vatRate: row.vatRate ?? PRODUCT_DEFAULTS.vatRate,
          unit: row.unit ?? PRODUCT_DEFAULTS.unit,
          active: row.active ?? PRODUCT_DEFAULTS.active,
        };
        if (existing) {
          if (changed(existing, fields)) products.set(existing.id, { ...existing, ...fields, updatedAt: at });
          ids[row.sku] = existing.id;
          continue;
        }
        const id = randomUUID();
        products.set(id, { id, sku: row.sku, ...fields, updatedAt: at, garageId });
        stock.set(id, { garageId, quantity: 0, updatedAt: at });
        ids[row.sku] = id;
      }
      return ids;
    },
  };

  const stockItems = (): (StockItem & { garageId: string })[] =>
    [...stock.entries()].map(([productId, s]) => ({ productId, sku: products.get(productId)!.sku, quantity: s.quantity, updatedAt: s.updatedAt, garageId: s.garageId }));

  const stockRepository: StockRepository = {
    async list(q) {
      const listed = stockItems().filter(
        (s) => s.garageId === q.garageId && (q.updatedSince === null || s.updatedAt >= q.updatedSince) && (q.sku === null || s.sku === q.sku),
      );
      return keysetPage(listed, (s) => ({ sortValue: s.updatedAt, id: s.productId }), q).map((s) => withoutGarage(s));
    },
    async setQuantities(garageId, rows) {
      await garageOf(garageId);
      const details = rows.flatMap((row, i) =>
        productBySku(garageId, row.sku) ? [] : [{ path: `/${i}/sku`, message: `no product with sku ${row.sku} in this garage` }],
      );
      if (details.length > 0) throw new InvalidReferenceError('Unknown sku', details);
      const at = writeTime();
      const ids: Record<string, string> = {};
      for (const row of rows) {
        const { id } = productBySku(garageId, row.sku)!;
        const current = stock.get(id)!;
        if (current.quantity !== row.quantity) stock.set(id, { ...current, quantity: row.quantity, updatedAt: at });
        ids[row.sku] = id;
      }
      return ids;
    },
  };

  const vehicleRepository: VehicleRepository = {
    async list(q) {
      const listed = [...vehicles.values()].filter(
        (v) =>
          v.garageId === q.garageId &&
          v.status !== 'sold' &&
          (q.make === null || v.make.toLowerCase() === q.make.toLowerCase()) &&
          (q.fuel === null || v.fuel === q.fuel) &&
          (q.updatedSince === null || v.updatedAt >= q.updatedSince),
      );
      return keysetPage(listed, (v) => ({ sortValue: v.publishedAt, id: v.id }), q, true).map((v) => withoutGarage(v));
    },
    async findPublicById(id, garageId) {
      const vehicle = vehicles.get(id);
      if (!vehicle || vehicle.status === 'sold' || (garageId !== null && vehicle.garageId !== garageId)) return null;
      return { ...vehicle };
    },
    async upsertMany(garageId, rows, defaultCurrency) {
      await garageOf(garageId);
      const at = writeTime();
      const ids: Record<string, string> = {};
      for (const row of rows) {
        const existing = [...vehicles.values()].find((v) => v.garageId === garageId && v.reference === row.reference);
        const fields = {
          make: row.make,
          model: row.model,
          version: row.version ?? null,
          year: row.year,
          mileageKm: row.mileageKm,
          fuel: row.fuel,
          gearbox: row.gearbox,
          priceCents: row.priceCents,
          currency: defaultCurrency,
          color: row.color ?? null,
          description: row.description ?? null,
          photos: row.photos ?? [],
          status: row.status ?? 'available',
        };
        if (existing) {
          // publishedAt stays: it is the fleet's order and must not move when a vehicle is edited.
          if (changed(existing, fields)) vehicles.set(existing.id, { ...existing, ...fields, updatedAt: at });
          ids[row.reference] = existing.id;
          continue;
        }
        const id = randomUUID();
        vehicles.set(id, { id, reference: row.reference, ...fields, publishedAt: at, updatedAt: at, garageId });
        ids[row.reference] = id;
      }
      return ids;
    },
  };

  const rowsOf = { products: () => [...products.values()], stock: () => [...stock.values()], vehicles: () => [...vehicles.values()] };
  const listVersions: ListVersionProbe = {
    async versions(list, garageIds) {
      const newest = (garageId: string) =>
        rowsOf[list]()
          .filter((row) => row.garageId === garageId)
          .reduce<number | null>((max, row) => Math.max(max ?? 0, row.updatedAt.getTime()), null);
      return new Map(garageIds.map((id) => [id, String(newest(id) ?? 'none')]));
    },
  };

  return { products: productRepository, stock: stockRepository, vehicles: vehicleRepository, listVersions };
};
