// Part of the build: renders the guides and the reference (docs/connectors, docs/reference) into dist/doc-pages, the
// pages the API serves beside its interactive reference (src/routes/doc-pages.ts). Rendered at build time, so that the
// image carries HTML and no Markdown renderer.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPages } from '@garage/docs-render';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const out = fileURLToPath(new URL('../dist/doc-pages/', import.meta.url));
rmSync(out, { recursive: true, force: true });
for (const page of await renderPages(root)) {
  const file = join(out, `${page.path}.html`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page.html);
}
