/**
 * The dependency rule of docs/contributors/architecture.md, enforced on every `pnpm test`: apps → adapters → domain, never the other
 * way. One rule per layer rule, each saying why; `pnpm check:deps` names the rule and the import that breaks it.
 */

/** Node modules that reach outside the process (files, network, other processes): I/O belongs in adapters. */
const NODE_IO = '^(node:)?(fs|fs/promises|net|tls|http|https|http2|dgram|dns|dns/promises|child_process|cluster|worker_threads|readline|inspector|repl)$';
/** The libraries the adapters wrap; the domain must not know them. */
const INFRASTRUCTURE = '(^|node_modules/)(fastify|@fastify/[^/]+|fastify-plugin|kysely|pg|pg-pool|ioredis|pino|@electric-sql/[^/]+)($|/)';
/** An app, by path or by package name. */
const APPS = ['^apps/', '(^|node_modules/)@garage/(api|worker|cli)($|/)'];

module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-adapter-or-app',
      comment:
        'The domain is the innermost layer: adapters and apps depend on it, so it importing them would be a cycle in ' +
        'the architecture and would drag databases and HTTP into every use of the rules.',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: { path: ['^packages/(?!domain/)', '(^|node_modules/)@garage/(?!domain($|/))', ...APPS] },
    },
    {
      name: 'domain-imports-no-framework',
      comment:
        'Use cases are plain functions over ports, so that a worker, a CLI or a test can run them without Fastify, ' +
        'Kysely, pg, ioredis or pino.',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: { path: INFRASTRUCTURE },
    },
    {
      name: 'domain-uses-only-its-libraries',
      comment:
        'The domain depends on pure computation only, and only on the three libraries docs/contributors/architecture.md ' +
        '("What the domain may use") lists and says why: luxon (time zones), lru-cache (the bounded memory of the ' +
        'caches a composition root makes) and ipaddr.js (address ranges of the webhook destination rule). Another ' +
        'library is a change of that rule, made there first.',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown', 'unknown', 'undetermined'],
        pathNot: '(^|node_modules/)(luxon|lru-cache|ipaddr\\.js)($|/)',
      },
    },
    {
      name: 'domain-does-no-io',
      comment:
        'Files, sockets and processes are reached through ports implemented by adapters; node:crypto stays allowed ' +
        '(hashing and encryption are computation).',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'packages-do-not-import-apps',
      comment:
        'Adapters and shared packages are reused by several apps; one importing an app would tie every app to it ' +
        'and make the apps impossible to deploy apart.',
      severity: 'error',
      // Examples show programs built on the packages, as a developer outside the repository would write them.
      from: { path: '^(packages|examples)/[^/]+/src' },
      to: { path: APPS },
    },
    {
      name: 'apps-do-not-import-apps',
      comment:
        'Each app is a process of its own (api, worker, cli). What two apps share (webhook delivery, configuration) ' +
        'is a package under packages/, so that no app has to ship another.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: APPS, pathNot: ['^apps/$1/', '(^|node_modules/)@garage/$1($|/)'] },
    },
    {
      name: 'adapters-do-not-know-fastify',
      comment: 'HTTP is one transport among several (CLI, worker); adapters serve them all.',
      severity: 'error',
      from: { path: '^packages/(postgres|redis|webhook-delivery)/src' },
      to: { path: '(^|node_modules/)(fastify|@fastify/[^/]+|fastify-plugin)($|/)' },
    },
    {
      name: 'adapters-do-not-know-each-other',
      comment: 'Postgres and Redis are optional apart from each other; only a composition root combines them.',
      severity: 'error',
      from: { path: '^packages/postgres/src' },
      to: { path: ['^packages/redis/', '(^|node_modules/)(@garage/redis|ioredis)($|/)'] },
    },
    {
      name: 'routes-do-not-touch-the-database',
      comment: 'A route validates, calls a use case and shapes the answer; SQL lives in the Postgres adapter.',
      severity: 'error',
      from: { path: '^apps/api/src/routes' },
      to: { path: ['^packages/postgres/', '(^|node_modules/)(kysely|pg|@electric-sql/[^/]+)($|/)', '@garage/postgres'] },
    },
    {
      // Test support (fakes, object mothers, the test clock, contract suites, test databases) sits in the `testing`
      // entry of the package it supports, so that the package graph stays a tree; it is built with the package but
      // only test files may load it: a product file importing it would ship test code, or fail at start.
      name: 'no-test-code-in-product',
      comment:
        'Product sources (apps/*/src, packages/*/src outside src/testing/, examples/*/src) never import a testing entry or a test/ folder.',
      severity: 'error',
      from: { path: '^(apps|packages|examples)/[^/]+/src', pathNot: '^(apps|packages)/[^/]+/src/testing/' },
      to: { path: ['^(apps|packages)/[^/]+/(src|dist)/testing/', '(^|node_modules/)@garage/[^/]+/testing($|/)', '/test/'] },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes load order matter and hides which module owns a rule.',
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
