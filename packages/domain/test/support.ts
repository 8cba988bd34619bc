// Tests see the package's public API and the test kit (fakes, contract suites) through one import. The domain is
// imported by its own name, as the test kit imports it, so that both see the same classes (one `DomainError`).
import { isPromise, type Awaitable } from '../src/index.js';

export * from '../src/index.js';
export * from '../src/testing/index.js';
// Internals that the domain's own tests exercise directly; the package does not export them. They throw the
// source's error classes: tests match such errors by code, not by class.
export { Checker } from '../src/shared/validation.js';
export { addCalendarDays, checkLocalDate, fixedOffsetRfc3339, localDateAt, localRfc3339, makeSlotModel, toLocalRfc3339 } from '../src/booking/slot-model.js';

/** What a use case that answers at once when it can gives on a refusal: a rejected promise, never a value or a throw. */
export const refusal = <T>(value: Awaitable<T>): Promise<T> => {
  if (!isPromise(value)) throw new Error(`a refusal must be a rejected promise, got ${JSON.stringify(value)}`);
  return value;
};
