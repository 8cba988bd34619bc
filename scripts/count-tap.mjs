// Sums tap's per-run summaries ("# { total: N, pass: N, fail: N, ... }") from a test log and prints the CI line.
// A failing run that printed no summary (a crash, a build error) still counts as a failure.
import { readFileSync } from 'node:fs';

const [file, status] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
let passed = 0;
let failed = 0;
for (const match of text.matchAll(/# \{ ([^}]*total: \d+[^}]*) \}/g)) {
  const fields = Object.fromEntries(match[1].split(',').map((kv) => kv.trim().split(': ')).map(([k, v]) => [k, Number(v)]));
  passed += fields.pass ?? 0;
  failed += fields.fail ?? 0;
}
if (Number(status) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(Number(status) === 0 ? 0 : 1);
