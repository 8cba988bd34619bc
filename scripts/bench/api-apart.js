// `--api-apart`: the APIs under test on CPU 0 alone; Postgres, the bench (the load generator) and the bare route on
// the other CPUs. On a machine of two CPUs shared by all, whatever else runs (Postgres's work for a request, the load
// generator) preempts the API and cools its caches, which its CPU time per request then counts; apart, the API's
// figure is its own work, as where it has a machine of its own. The bare route no longer runs under the API's
// conditions, so "× bare" means little in such a run: meant with --only. Linux only, with `taskset` (util-linux) and
// the right to change the server's CPU affinity (root, or the server's own user). Postgres gets its CPUs back when
// the bench ends.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { processesWhere } from './cpu.js';

/** Every process of the Postgres server on this machine: the postmaster and the processes it forked. */
const postgresPids = () => processesWhere('comm', (name) => name.trim() === 'postgres');

const cpuList = (pid) => /:\s*(\S+)\s*$/.exec(execFileSync('taskset', ['-c', '-p', pid], { encoding: 'utf8' }))?.[1];
/** Every thread of the process, and what it starts from now on. */
export const setCpuList = (pid, list) => execFileSync('taskset', ['-a', '-c', '-p', list, String(pid)], { stdio: 'ignore' });

const API_CPU = '0';

/**
 * Moves the server's processes and this one (with every process it starts from now on) off CPU 0, which `apiCpus`
 * names for each API started (startApi's `cpus`). Returns that, what to print of it and the undo, which gives every
 * process of the server its CPUs back (the backends forked meanwhile too: they inherited the postmaster's).
 */
export const placeApiApart = () => {
  const count = cpus().length;
  if (count < 2) throw new Error('--api-apart needs two CPUs or more');
  const pids = postgresPids();
  if (pids.length === 0) throw new Error('--api-apart: no Postgres process on this machine');
  const original = cpuList(pids[0]) ?? `0-${count - 1}`;
  const others = count === 2 ? '1' : `1-${count - 1}`;
  try {
    for (const pid of pids) setCpuList(pid, others);
  } catch (err) {
    for (const pid of postgresPids()) setCpuList(pid, original);
    throw new Error(`--api-apart: cannot move the Postgres processes (${err instanceof Error ? err.message : String(err)}); run as root or as the server's user`);
  }
  setCpuList(process.pid, others);
  return {
    apiCpus: API_CPU,
    description: `the APIs under test on CPU ${API_CPU} alone; Postgres, the load generator and the bare route on CPU ${others} (--api-apart)`,
    restore: () => {
      for (const pid of postgresPids()) {
        try {
          setCpuList(pid, original);
        } catch {
          // a backend that ended meanwhile
        }
      }
    },
  };
};

