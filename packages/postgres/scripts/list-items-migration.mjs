// Writes the next generated list-items migration when the list item shapes changed since the latest one
// (docs/contributors/adding-a-list-field.md). Run through `pnpm list-items:migration`, which builds the package first.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { listItemsMigrationSource } from '../dist/list-items/migration-source.js';
import { listItemFunctions } from '../dist/list-items/render-sql.js';
import { latestListItemFunctions } from '../dist/migrations/index.js';

const migrationsDir = new URL('../src/migrations/', import.meta.url);
const indexFile = new URL('index.ts', migrationsDir);

const generated = listItemFunctions();
const latest = latestListItemFunctions() ?? {};
const changed = Object.keys(generated).filter((table) => generated[table] !== latest[table]);
if (changed.length === 0) {
  console.log('list items: the latest generated migration already installs these functions; nothing to write');
  process.exit(0);
}

const numbers = readdirSync(migrationsDir).flatMap((file) => /^(\d{4})-/.exec(file)?.slice(1) ?? []).map(Number);
const number = String(Math.max(...numbers) + 1).padStart(4, '0');
const name = `${number}-list-items`;
writeFileSync(new URL(`${name}.ts`, migrationsDir), listItemsMigrationSource(name, generated, changed));

/** Inserts `line` after the last line of `text` that matches `pattern`. */
const afterLast = (text, pattern, line) => {
  const lines = text.split('\n');
  const at = lines.findLastIndex((l) => pattern.test(l));
  if (at < 0) throw new Error(`${indexFile.pathname}: no line matches ${pattern}`);
  lines.splice(at + 1, 0, line);
  return lines.join('\n');
};
let index = readFileSync(indexFile, 'utf8');
index = afterLast(index, /^import \* as m\d{4} from '\.\/\d{4}-/, `import * as m${number} from './${name}.js';`);
index = afterLast(index, /^ {2}'\d{4}-[^']+': m\d{4},$/, `  '${name}': m${number},`);
writeFileSync(indexFile, index);
console.log(`list items: wrote src/migrations/${name}.ts (renders ${changed.join(', ')} again) and listed it in src/migrations/index.ts`);
