// CPU time spent by the processes under test, read from /proc (Linux). Throughput on a shared machine moves with
// everyone else's load; CPU time per request moves much less, so the table shows both.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Resident memory of one process in MiB, or null where /proc is not available. */
export const processRssMiB = (pid) => {
  try {
    const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return rss ? Number(rss[1]) / 1024 : null;
  } catch {
    return null;
  }
};

/** utime + stime in ms from a `stat` file of /proc, or null where it cannot be read. */
const statCpuMs = (path) => {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
};

/** utime + stime of one process in ms, all its threads, or null where /proc is not available. */
export const processCpuMs = (pid) => statCpuMs(`/proc/${pid}/stat`);

/**
 * utime + stime of a process's main thread in ms: in Node, the thread that runs the JavaScript. The rest of a Node
 * process's CPU is V8's collector helpers, its compiler threads and libuv's pool, so a main thread well under the
 * process's total points at the collector.
 */
export const mainThreadCpuMs = (pid) => statCpuMs(`/proc/${pid}/task/${pid}/stat`);

/** The ids of the processes on this machine whose `/proc/<pid>/<file>` satisfies `test`; gone or unreadable ones are skipped. */
export const processesWhere = (file, test) =>
  readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return test(readFileSync(`/proc/${entry}/${file}`, 'utf8'));
    } catch {
      return false;
    }
  });

/**
 * CPU of each Postgres backend serving `database` (its process title names it), in ms by pid: the database's share of
 * a request, apart from every other database on the server.
 */
export const postgresCpuMs = (database) => {
  const byPid = new Map();
  for (const entry of processesWhere('cmdline', (title) => title.startsWith('postgres:') && title.includes(` ${database} `))) {
    const ms = processCpuMs(entry);
    if (ms !== null) byPid.set(entry, ms);
  }
  return byPid;
};

/** CPU spent between two readings of `postgresCpuMs`; a backend that ended meanwhile is not counted. */
export const postgresCpuDelta = (before, after) => {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return after.size === 0 ? null : total;
};

/**
 * The machine's CPU time in ms, busy and in all, summed over its CPUs (the first line of /proc/stat), or null where it
 * cannot be read: between two readings, the share of the machine a scenario kept busy, whoever used it.
 */
export const machineCpuMs = () => {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is already counted in user).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: (busy * 1000) / ticksPerSecond, total: ((busy + idle + iowait) * 1000) / ticksPerSecond };
  } catch {
    return null;
  }
};
