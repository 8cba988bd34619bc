import {
  fieldsOf,
  isUuid,
  productPosition,
  stockPosition,
  vehiclePosition,
  type ItemOf,
  type ItemShape,
  type KeysetPosition,
  type Listing,
  type ProductListQuery,
  type StockListQuery,
  type VehicleListQuery,
} from '@garage/domain';
import { withErrorMapping } from '../errors.js';
import { listedProducts } from '../repositories/product-repository.js';
import { listedStock } from '../repositories/stock-repository.js';
import { listedVehicles } from '../repositories/vehicle-repository.js';
import type { Executor } from '../schema.js';
import { PRODUCTS, STOCK, VEHICLES } from './list-item-tables.js';

/**
 * One list of rendered items: the rows the domain's reader lists, in its order, each as its item's JSON (keys in the
 * shape's order, no spaces, as JSON.stringify writes the domain's object), rendered by the row's trigger when it was
 * written (docs/operators/performance.md, "List pages"). `positionOf` says where an item stands, for the cursor.
 */
export interface RenderedList<Q> extends Listing<Q, string> {
  positionOf(item: string): KeysetPosition;
}

/**
 * The read model of the transports that send list items as JSON (the API's pages): adapter-side, so that the domain's
 * ports speak domain objects. The list use cases page over it as over the domain's readers.
 */
export interface RenderedLists {
  products: RenderedList<ProductListQuery>;
  stock: RenderedList<StockListQuery>;
  vehicles: RenderedList<VehicleListQuery>;
}

/** The item a rendered string holds, its times as the `Date`s JSON gave up. */
const parseItem = <S extends ItemShape>(shape: S): ((text: string) => ItemOf<S>) => {
  const times = fieldsOf(shape).flatMap(([name, field]) => (field.kind === 'time' ? [name] : []));
  return (text) => {
    const item = JSON.parse(text) as Record<string, unknown>;
    for (const name of times) if (item[name] !== null) item[name] = new Date(item[name] as string);
    return item as ItemOf<S>;
  };
};

export const makeRenderedLists = (db: Executor): RenderedLists => {
  const product = parseItem(PRODUCTS.shape);
  const stockItem = parseItem(STOCK.shape);
  const vehicle = parseItem(VEHICLES.shape);
  return {
    products: {
      ...withErrorMapping<Listing<ProductListQuery, string>>({
        async list(q) {
          if (!isUuid(q.garageId)) return [];
          return (await listedProducts(db, q).select('list_item').execute()).map((row) => row.list_item);
        },
      }),
      positionOf: (item) => productPosition(product(item)),
    },
    stock: {
      ...withErrorMapping<Listing<StockListQuery, string>>({
        async list(q) {
          if (!isUuid(q.garageId)) return [];
          return (await listedStock(db, q).select('stock.list_item').execute()).map((row) => row.list_item);
        },
      }),
      positionOf: (item) => stockPosition(stockItem(item)),
    },
    vehicles: {
      ...withErrorMapping<Listing<VehicleListQuery, string>>({
        async list(q) {
          if (!isUuid(q.garageId)) return [];
          return (await listedVehicles(db, q).select('list_item').execute()).map((row) => row.list_item);
        },
      }),
      positionOf: (item) => vehiclePosition(vehicle(item)),
    },
  };
};
