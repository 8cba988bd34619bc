import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const ADAPTERS = /from '(@garage\/(postgres|redis|composition)[^']*|kysely|pg|ioredis|@electric-sql\/[^']+)'/g;

const sources = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sources(join(dir, e.name)) : Promise.resolve(e.name.endsWith('.ts') ? [join(dir, e.name)] : []))),
  );
  return nested.flat();
};

// src/testing/ is test support for other packages' tests (it starts the built API), not part of the app.
t.test('only the composition root (src/composition/) knows the concrete adapters (docs/contributors/architecture.md)', async (t) => {
  const files = await sources(SRC);
  t.ok(files.length > 10);
  const offenders: string[] = [];
  for (const file of files) {
    const name = relative(SRC, file);
    const imports = [...(await readFile(file, 'utf8')).matchAll(ADAPTERS)].map((m) => m[1]);
    if (imports.length > 0 && !name.startsWith(`composition${sep}`) && !name.startsWith(`testing${sep}`)) offenders.push(`${name}: ${imports.join(', ')}`);
  }
  t.same(offenders, []);
});
