// `--separate-postgres`: Postgres on a CPU of its own, the bench and the processes it starts on the others, as where
// the database runs on a machine of its own. On a machine of two CPUs shared by all, the database's work for a request
// lands on the API's CPU too and inflates the API's CPU time per request (switches, cold caches); apart, the API's
// figure is the API's own work. Linux only, with `taskset` (util-linux) and the right to change the server's CPU
// affinity (root, or the server's own user). Postgres gets its CPUs back when the bench ends.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Every process of the Postgres server on this machine: the postmaster and the processes it forked. */
const postgresPids = () =>
  readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });

const cpuList = (pid) => /:\s*(\S+)\s*$/.exec(execFileSync('taskset', ['-c', '-p', pid], { encoding: 'utf8' }))?.[1];
const setCpuList = (pid, list) => execFileSync('taskset', ['-a', '-c', '-p', list, pid], { stdio: 'ignore' });

/**
 * Moves the server's processes to the last CPU and this process (with every process it starts from now on) to the
 * others. Returns what to print of it and the undo, which gives every process of the server its CPUs back (the
 * backends forked meanwhile too: they inherited the postmaster's).
 */
export const separatePostgres = () => {
  const count = cpus().length;
  if (count < 2) throw new Error('--separate-postgres needs two CPUs or more');
  const pids = postgresPids();
  if (pids.length === 0) throw new Error('--separate-postgres: no Postgres process on this machine');
  const original = cpuList(pids[0]) ?? `0-${count - 1}`;
  const postgresCpu = String(count - 1);
  const benchCpus = count === 2 ? '0' : `0-${count - 2}`;
  try {
    for (const pid of pids) setCpuList(pid, postgresCpu);
  } catch (err) {
    for (const pid of postgresPids()) setCpuList(pid, original);
    throw new Error(`--separate-postgres: cannot move the Postgres processes (${err instanceof Error ? err.message : String(err)}); run as root or as the server's user`);
  }
  setCpuList(String(process.pid), benchCpus);
  return {
    description: `Postgres on CPU ${postgresCpu}, the bench and the processes it starts on CPU ${benchCpus} (--separate-postgres)`,
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
