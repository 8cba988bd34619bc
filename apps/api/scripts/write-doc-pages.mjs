// Part of the build: renders the guides and the reference (docs/connectors, docs/reference) into dist/doc-pages, the
// pages the API serves beside its interactive reference (src/routes/doc-pages.ts), with the images they show. Rendered
// at build time, so that the image carries HTML and no Markdown renderer.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPages } from '@garage/docs-render';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const out = fileURLToPath(new URL('../dist/doc-pages/', import.meta.url));
const write = (path, copy) => {
  const file = join(out, path);
  mkdirSync(dirname(file), { recursive: true });
  copy(file);
};
rmSync(out, { recursive: true, force: true });
for (const page of await renderPages(root)) {
  write(`${page.path}.html`, (file) => writeFileSync(file, page.html));
  for (const image of page.images) write(image, (file) => copyFileSync(join(root, 'docs', image), file));
}
