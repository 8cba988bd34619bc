/**
 * The dependency rule of ARCHITECTURE.md, enforced: apps → adapters → domain, never the other way;
 * the domain stays free of infrastructure libraries; adapters never import Fastify; routes never import Kysely;
 * product code never imports test code.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: { path: ['^apps/', '^packages/(postgres|redis)/', '(^|node_modules/)(fastify|@fastify/[^/]+|kysely|pg|ioredis|pino|@electric-sql/[^/]+)($|/)'] },
    },
    {
      name: 'adapters-do-not-know-apps-or-fastify',
      severity: 'error',
      from: { path: '^packages/(postgres|redis)/src' },
      to: { path: ['^apps/', '(^|node_modules/)(fastify|@fastify/[^/]+)($|/)'] },
    },
    {
      name: 'adapters-do-not-know-each-other',
      severity: 'error',
      from: { path: '^packages/postgres/src' },
      to: { path: ['^packages/redis/', '(^|node_modules/)ioredis($|/)'] },
    },
    {
      name: 'routes-do-not-touch-the-database',
      severity: 'error',
      from: { path: '^apps/api/src/routes' },
      to: { path: ['^packages/postgres/', '(^|node_modules/)(kysely|pg|@electric-sql/[^/]+)($|/)', '@garage/postgres'] },
    },
    {
      // Test support lives in the dev-only @garage/testkit and in test/ folders, which are devDependencies and are
      // not deployed (`pnpm deploy --prod`): a product file importing them would ship test code, or fail at start.
      name: 'no-test-code-in-product',
      comment: 'Product sources (apps/*/src, packages/*/src) never import @garage/testkit or a test/ folder.',
      severity: 'error',
      from: { path: '^(apps|packages)/[^/]+/src', pathNot: '^packages/testkit/' },
      to: { path: ['^packages/testkit/', '(^|node_modules/)@garage/testkit($|/)', '/test/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Tests and build output are not checked as sources, yet stay visible as targets: excluding them would also
    // drop every dependency on them, and with it an import of a workspace package (resolved into its dist/) or of
    // a test file, which the rules above must see.
    doNotFollow: { path: ['node_modules', '/dist/', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'], extensions: ['.ts', '.js'] },
  },
};
