// Tests see the package's public API and its testing kit (fakes, contract suites) through one import.
export * from '../src/index.js';
export * from '../src/testing/index.js';
// Internals that the domain's own tests exercise directly; the package does not export them.
export { Checker } from '../src/services/validate.js';
export { makeSlotModel } from '../src/booking/slot-model.js';
