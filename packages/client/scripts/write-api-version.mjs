// Part of `generate`: the API version the generated types describe (the document's info.version), which the client
// sends as Garage-Version on every request.
import { readFileSync, writeFileSync } from 'node:fs';

const document = JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8'));
writeFileSync(
  new URL('../src/generated/api-version.ts', import.meta.url),
  `// Generated from openapi/openapi.json by \`pnpm openapi\`; do not edit.\nexport const API_VERSION = ${JSON.stringify(document.info.version)};\n`,
);
