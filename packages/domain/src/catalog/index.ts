/** The parts catalog, stock and the vehicles for sale: their lists for connectors and their imports. */
export {
  PRODUCT_DEFAULTS,
  type Product,
  type ProductImportRow,
  type StockImportRow,
  type StockItem,
} from './catalog-items.js';
export {
  FUELS,
  GEARBOXES,
  VEHICLE_STATUSES,
  type Fuel,
  type Gearbox,
  type Vehicle,
  type VehicleImportRow,
  type VehicleStatus,
} from '../fleet/vehicle.js';
export type {
  ProductListQuery,
  ProductReader,
  ProductRepository,
  StockListQuery,
  StockReader,
  StockRepository,
} from './catalog-repository.port.js';
export type { VehicleListQuery, VehicleReader, VehicleRepository } from '../fleet/vehicle-repository.port.js';
export { makeListProducts, type ListProductsQuery } from './list-products.js';
export { makeListStock, type ListStockQuery } from './list-stock.js';
export { makeListVehicles, type ListVehiclesQuery } from '../fleet/list-vehicles.js';
export { makeGetVehicle } from '../fleet/get-vehicle.js';
export { makeImportProducts, makeImportStock, makeImportVehicles, type ImportResult } from './import-catalog.js';
