// Where the API spends its CPU under load: self time from a V8 CPU profile (`node --cpu-prof`), by package and by
// function; and, where the bench sampled them beside it, the bytes it allocates per request, by function. Usable
// alone: `node scripts/bench/profile-summary.js <file.cpuprofile | directory>`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * Bytes allocated per request, in all and by function, from the allocation sampler's profile (`.heapprofile`) of a
 * scenario that sent `requests` requests.
 */
const summariseAllocations = (profile, requests) => {
  const byFunction = new Map();
  let total = 0;
  const walk = (node) => {
    const { callFrame } = node;
    const file = callFrame.url.split('/').slice(-2).join('/');
    const fn = `${callFrame.functionName || '(anonymous)'} ${file ? `${file}:${callFrame.lineNumber + 1}` : ''}`.trim();
    total += node.selfSize;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const top = [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, bytes]) => `    ${String(Math.round(bytes / requests)).padStart(6)} B  ${name}`);
  return [`  allocated ${Math.round(total / requests)} bytes per request (${requests} requests); by function, bytes per request:`, ...top].join('\n');
};

/** The allocation summary of the scenario whose CPU profile is `file`, when the bench sampled its allocations. */
const allocationsBeside = (file) => {
  const base = file.slice(0, -'.cpuprofile'.length);
  if (!existsSync(`${base}.heapprofile`) || !existsSync(`${base}.requests`)) return null;
  const requests = Number(readFileSync(`${base}.requests`, 'utf8'));
  return summariseAllocations(JSON.parse(readFileSync(`${base}.heapprofile`, 'utf8')), Math.max(1, requests));
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
  return files
    .map((file) => {
      const allocations = allocationsBeside(file);
      const cpu = summarise(JSON.parse(readFileSync(file, 'utf8')));
      return `CPU profile of the API, ${basename(file, '.cpuprofile')}:\n${cpu}${allocations ? `\n${allocations}` : ''}`;
    })
    .join('\n\n');
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node scripts/bench/profile-summary.js <file.cpuprofile | directory>');
    process.exit(2);
  }
  console.log(summariseProfileDir(target));
}
