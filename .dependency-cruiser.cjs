/**
 * The dependency rule of ARCHITECTURE.md, enforced: apps → adapters → domain, never the other way;
 * the domain stays free of infrastructure libraries; adapters never import Fastify; routes never import Kysely.
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
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/dist/', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'], extensions: ['.ts', '.js'] },
  },
};
