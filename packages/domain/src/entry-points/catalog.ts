/** The parts catalog, stock and the vehicles for sale: their lists for connectors and their imports. */
export {
  PRODUCT_DEFAULTS,
  type Product,
  type ProductImportRow,
  type StockImportRow,
  type StockItem,
} from '../entities/catalog.js';
export {
  FUELS,
  GEARBOXES,
  VEHICLE_STATUSES,
  type Fuel,
  type Gearbox,
  type Vehicle,
  type VehicleImportRow,
  type VehicleStatus,
} from '../entities/vehicle.js';
export type {
  ProductListQuery,
  ProductReader,
  ProductRepository,
  StockListQuery,
  StockReader,
  StockRepository,
} from '../ports/catalog-repository.port.js';
export type { VehicleListQuery, VehicleReader, VehicleRepository } from '../ports/vehicle-repository.port.js';
export { makeListProducts, type ListProductsQuery } from '../use-cases/list-products.js';
export { makeListStock, type ListStockQuery } from '../use-cases/list-stock.js';
export { makeListVehicles, type ListVehiclesQuery } from '../use-cases/list-vehicles.js';
export { makeGetVehicle } from '../use-cases/get-vehicle.js';
export { makeImportProducts, makeImportStock, makeImportVehicles, type ImportResult } from '../use-cases/import-catalog.js';
