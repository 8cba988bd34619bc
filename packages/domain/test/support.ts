// Tests see the package's public API and its testing kit (fakes, contract suites) through one import.
export * from '../src/index.js';
export * from '../src/testing/index.js';
