import { isPromise as isNativePromise } from 'node:util/types';

/**
 * A value that is there at once when it is already known (a cache hit), a promise otherwise. `await` takes both; the
 * hot path of a cached read takes the first without a promise or a microtask per step (issue 18).
 */
export type Awaitable<T> = T | Promise<T>;

/** Still on its way. Async functions and the drivers return native promises, the only kind an `Awaitable` holds. */
export const isPromise = <T>(value: Awaitable<T>): value is Promise<T> => isNativePromise(value);

/** `then` of the value: now if it is there, once it arrives if not. A promise in, a promise out. */
export const whenReady = <T, R>(value: Awaitable<T>, then: (value: T) => Awaitable<R>): Awaitable<R> =>
  isPromise(value) ? value.then(then) : then(value);
