/** The operator's use cases (CLI, embedded demo seeding), wired from ports only. */
export { makeAdminUseCases, type AdminDeps, type AdminUseCases } from './admin-use-cases.js';
export { DEMO_GARAGE_SLUG, makeSeedDemo, type DemoCredentials } from './seed-demo.js';
