// Where the API spends its CPU under load: self time from a V8 CPU profile (`node --cpu-prof`), by package and by
// function. Usable alone: `node scripts/bench/profile-summary.js <file.cpuprofile | directory>`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `node_modules/.pnpm/x@1/node_modules/@scope/name/…` → `@scope/name`; workspace code → `packages/postgres` etc. */
const packageOf = (url) => {
  if (!url) return '(native: system calls, GC)';
  if (url.startsWith('node:')) return 'node core';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : first ?? url;
  }
  const workspace = /\/(apps|packages)\/([^/]+)\//.exec(url);
  return workspace ? `${workspace[1]}/${workspace[2]}` : url;
};

const summarise = (profile) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Percentages of the time the process was busy: idle time (waiting for I/O, or before the load) would drown them.
  let total = 0;
  let idle = 0;
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') {
      idle += micros;
      continue;
    }
    total += micros;
    const pkg = packageOf(callFrame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const file = callFrame.url.split('/').slice(-2).join('/');
    const fn = `${callFrame.functionName || '(anonymous)'} ${file ? `${file}:${callFrame.lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => `    ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  return [
    `  busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s; self time by package, % of busy:`,
    ...top(byPackage, 12),
    '  by function, % of busy:',
    ...top(byFunction, 20),
  ].join('\n');
};

const profileFiles = (path) => {
  if (!statSync(path).isDirectory()) return [path];
  const entries = readdirSync(path).map((name) => join(path, name));
  // In the order they were written: one per scenario, in the bench's order.
  const files = entries.filter((p) => p.endsWith('.cpuprofile')).sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  if (files.length > 0) return files;
  // A directory of runs: the newest one.
  const newest = entries.filter((p) => statSync(p).isDirectory()).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest ? profileFiles(newest) : [];
};

export const summariseProfileDir = (path) => {
  const files = profileFiles(path);
  if (files.length === 0) return `no CPU profile found under ${path}`;
  return files.map((file) => `CPU profile of the API, ${basename(file, '.cpuprofile')}:\n${summarise(JSON.parse(readFileSync(file, 'utf8')))}`).join('\n\n');
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node scripts/bench/profile-summary.js <file.cpuprofile | directory>');
    process.exit(2);
  }
  console.log(summariseProfileDir(target));
}
