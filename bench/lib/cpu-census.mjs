/**
 * Where a run's CPU went, read from /proc once a second (Linux; elsewhere `available` is
 * false and nothing is sampled): the machine's busy share of all its cores (/proc/stat),
 * and each process's user + system time (/proc/<pid>/stat) summed by group: the pids the
 * caller names (`workers`, `provider`...), then by command name (`postgres`,
 * `redis-server`), the rest `other`. A process that ends loses its last second (its
 * time is read while it lives), so the groups are a lower bound.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICK = 100; // USER_HZ: clock ticks a second on Linux

export const censusAvailable = () => existsSync('/proc/stat');

function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** { pid: [name, ticks] } of every process readable now. */
function processTicks() {
  const out = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const rest = stat.slice(close + 2).split(' ');
      out.set(Number(entry), [name, Number(rest[11]) + Number(rest[12])]); // utime, stime
    } catch {
      // ended between the listing and the read
    }
  }
  return out;
}

/**
 * Starts sampling. `groupOf(pid)` names the caller's own processes (or undefined).
 * `stop()` returns { seconds: [{ at, busyShare }], groups: { name: cpuSeconds }, cores }.
 */
export function startCensus(groupOf) {
  if (!censusAvailable()) return { stop: () => undefined };
  const seconds = [];
  const groups = {};
  let machine = machineTicks();
  let procs = processTicks();
  const sample = () => {
    const now = machineTicks();
    const total = now.total - machine.total;
    seconds.push({ at: Date.now(), busyShare: total > 0 ? (now.busy - machine.busy) / total : 0 });
    machine = now;
    const next = processTicks();
    for (const [pid, [name, ticks]] of next) {
      const before = procs.get(pid);
      const used = before && before[0] === name ? ticks - before[1] : 0;
      if (used <= 0) continue;
      const group =
        groupOf(pid) ?? (name === 'postgres' || name === 'redis-server' ? name : 'other');
      groups[group] = (groups[group] ?? 0) + used / TICK;
    }
    procs = next;
  };
  const timer = setInterval(sample, 1_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { seconds, groups, cores: cpus().length };
    },
  };
}

/** Of `slowStarts` (each second's start, ms), how many the machine spent >= `share` busy. */
export function saturatedAmong(census, slowStarts, share = 0.95) {
  if (!census) return undefined;
  let saturated = 0;
  for (const start of slowStarts) {
    // The sample taken at the end of a second covers it (taken once a second, so the
    // one within a second after its end).
    const covering = census.seconds.find((s) => s.at > start + 1_000 && s.at <= start + 2_000);
    if (covering && covering.busyShare >= share) saturated++;
  }
  const all = census.seconds.filter((s) => s.busyShare >= share).length;
  return { saturated, all, samples: census.seconds.length, share };
}
