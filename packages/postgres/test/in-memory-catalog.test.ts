import type { Transaction, UnitOfWork } from '@garage/domain';
import { makeInMemoryCatalog, makeInMemoryGarages } from '@garage/domain/testing';
import t from 'tap';
import { productRepositoryContract, stockRepositoryContract, vehicleRepositoryContract } from '../src/testing/index.js';

/**
 * The catalog's contract suites, run against the domain's in-memory fakes as `products.test.ts`, `stock.test.ts` and
 * `vehicles.test.ts` run them against Postgres and PGlite: the fakes programs and domain tests use behave as the
 * adapter does.
 */
const inMemory = () => {
  const { garages } = makeInMemoryGarages();
  const catalog = makeInMemoryCatalog({ garages });
  // The members these suites use; a suite reaching for another fails on the undefined member.
  const repos = { garages, products: catalog.products, stock: catalog.stock, vehicles: catalog.vehicles } as unknown as Transaction;
  // No atomicity to prove here: the fakes validate a write before making it.
  const uow: UnitOfWork = { run: (work) => work(repos) };
  return { repos, uow };
};

t.test('products', async (t) => productRepositoryContract(t, inMemory()));
t.test('stock', async (t) => stockRepositoryContract(t, inMemory()));
t.test('vehicles', async (t) => vehicleRepositoryContract(t, inMemory()));
