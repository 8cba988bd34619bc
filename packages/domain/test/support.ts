// Tests see the package's public API and the test kit (fakes, contract suites) through one import. The domain is
// imported by its own name, as the test kit imports it, so that both see the same classes (one `DomainError`).
export * from '@garage/domain';
export * from '@garage/testkit';
