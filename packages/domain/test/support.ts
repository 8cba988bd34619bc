// Tests see the package's public API and the test kit (fakes, contract suites) through one import. The domain is
// imported by its own name, as the test kit imports it, so that both see the same classes (one `DomainError`).
export * from '../src/index.js';
export * from '../src/testing/index.js';
// Internals that the domain's own tests exercise directly; the package does not export them. They throw the
// source's error classes: tests match such errors by code, not by class.
export { Checker } from '../src/kernel/validation.js';
export { addCalendarDays, checkLocalDate, fixedOffsetRfc3339, isoWeekday, parseRfc3339, toLocalRfc3339 } from '../src/booking/local-time.js';
export { makeDayModel, makeSlotModel } from '../src/booking/slot-model.js';
