// What the figures came from, and the table that prints them.
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

const cpuModel = () => {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
};

export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

export const machine = (postgresVersion, loadAverageAtStart) => ({
  date: new Date().toISOString(),
  // The machine's, not this process's: --api-apart narrows the bench's own.
  cpus: cpus().length,
  cpuModel: cpuModel(),
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  postgres: postgresVersion,
  loadAverageAtStart,
});

const pad = (text, width, right) => (right ? String(text).padStart(width) : String(text).padEnd(width));

/** A plain-text table; numeric columns right-aligned. */
export const table = (columns, rows) => {
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((cell, i) => pad(cell, widths[i], columns[i].right)).join('  ');
  return [line(columns.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
};

/** Status counts as `200×41234 409×12`, plus socket errors and timeouts when there were any. */
export const statusSummary = (result) => {
  const parts = Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => `${status}×${count}`);
  if (result.errors > 0) parts.push(`errors×${result.errors}`);
  if (result.timeouts > 0) parts.push(`timeouts×${result.timeouts}`);
  return parts.join(' ');
};
