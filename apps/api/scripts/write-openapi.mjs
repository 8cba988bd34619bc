// `pnpm openapi`: writes the OpenAPI documents generated from the route schemas (docs/reference/contract.md §7), one per supported API
// version (openapi/<version>.json) and openapi/openapi.json, the latest's.
// The app is built on a throwaway embedded database: the document depends on the routes only, never on data.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, loadConfig } from '../dist/index.js';

const dir = mkdtempSync(join(tmpdir(), 'garage-openapi-'));
try {
  const app = await buildApp(loadConfig({ PGLITE_DIR: join(dir, 'pglite'), LOG_LEVEL: 'silent', DELIVER_WEBHOOKS: 'false' }));
  await app.ready();
  const write = (name, document) => {
    const target = fileURLToPath(new URL(`../../../openapi/${name}.json`, import.meta.url));
    writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
    process.stdout.write(`wrote ${target}\n`);
  };
  for (const { version } of app.apiVersions.versions) write(version, app.openapiDocument(version));
  write('openapi', app.openapiDocument(app.apiVersions.latest));
  await app.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
