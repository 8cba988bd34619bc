import t from 'tap';
import type { KeysetPosition, Repositories, Transaction, UnitOfWork } from '@garage/domain';
import { makeRepositories, makeUnitOfWork, type DatabaseHandle } from '../../index.js';
import { backends, type Backend } from '../databases.js';

export type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

export interface ContractContext {
  backend: Backend['name'];
  handle: DatabaseHandle;
  /** Every repository method, each call in a transaction of its own: what a test needs to arrange and inspect. */
  repos: Transaction;
  /** The pool-bound repositories, as use cases read outside a transaction. */
  reads: Repositories;
  uow: UnitOfWork;
}

/** Each call `repos.x.m(...)` runs as `uow.run((tx) => tx.x.m(...))`. */
export const eachCallCommitted = (uow: UnitOfWork): Transaction =>
  new Proxy({} as Transaction, {
    get: (_target, member) =>
      new Proxy(
        {},
        {
          get:
            (_inner, method) =>
            (...args: unknown[]) =>
              uow.run((tx) => {
                const repository = tx[member as keyof Transaction] as unknown as Record<string | symbol, (...a: unknown[]) => Promise<unknown>>;
                const call = repository[method];
                if (!call) throw new Error(`${String(member)}.${String(method)} does not exist`);
                return call(...args);
              }),
        },
      ),
  });

/**
 * A contract suite: written once per port, proven against every backend. One that needs only some of the context
 * (`Contract<'repos' | 'uow'>`) can be proven against the domain's in-memory fakes too.
 */
export type Contract<K extends keyof ContractContext = keyof ContractContext> = (t: Tap, ctx: Pick<ContractContext, K>) => void;

/**
 * Runs `contract` once per backend, each on its own fresh database (dropped when the file ends). The tests of one
 * suite share that database, so each one works in a garage of its own.
 */
export const runContract = (contract: Contract): void => {
  for (const backend of backends) {
    t.test(backend.name, async (t) => {
      const { handle, drop } = await backend.open();
      t.teardown(drop);
      const uow = makeUnitOfWork(handle.db);
      contract(t, { backend: backend.name, handle, repos: eachCallCommitted(uow), reads: makeRepositories(handle.db), uow });
    });
  }
};

/**
 * Walks a keyset list page by page the way the API does (next page strictly after the last item), calling
 * `between` with what was seen so far after each page, so that a test can write while the walk is under way.
 */
export const walk = async <T>(
  page: (after: KeysetPosition | null, limit: number) => Promise<T[]>,
  positionOf: (item: T) => KeysetPosition,
  { limit, between = async () => {} }: { limit: number; between?: (seen: T[]) => Promise<void> },
): Promise<T[]> => {
  const seen: T[] = [];
  let after: KeysetPosition | null = null;
  for (;;) {
    const items = await page(after, limit);
    seen.push(...items);
    const last = items[items.length - 1];
    if (items.length < limit || !last) return seen;
    after = positionOf(last);
    await between(seen);
  }
};

/** How many times each key occurs. */
export const occurrences = (keys: string[]): Record<string, number> =>
  keys.reduce<Record<string, number>>((counts, key) => ({ ...counts, [key]: (counts[key] ?? 0) + 1 }), {});

