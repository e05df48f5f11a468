/**
 * node bench/engines.mjs (after npm run build; part of npm run bench): DESIGN 10.5's
 * figures for the job-engine adapters, per engine (BullMQ on a redis-server of its own,
 * graphile-worker 0.17 on a PostgreSQL of its own; an engine whose server is missing is
 * skipped, and said so):
 *
 * 1. The kill run (bench/engines/kill-run.mjs): BENCH_ENGINES_ITEMS items (default
 *    20,000; BENCH_QUICK=1: 1,000) on BENCH_ENGINES_WORKERS worker processes (8), one
 *    SIGKILLed every BENCH_ENGINES_KILL_MS (30,000; quick: 10,000) and replaced; the
 *    provider (the SDK's simulator, its own process) capped at BENCH_ENGINES_CREATE_RATE
 *    creates/s (100; quick: 25) and 4x that in lookups/s, settling each transfer after
 *    500 ms; every worker at that createRate through the one shared rate budget. Time
 *    from the first job added to the last item final, against the floor items /
 *    createRate (target <= 1.05x); creates and lookups per item; items created twice.
 * 2. The engine's own cost per job against `Batches` on the same store in the same run
 *    (bench/engines/overhead.mjs): BENCH_ENGINES_OVERHEAD_ITEMS items (2,000; quick 500),
 *    16 at a time, 2 rounds, medians.
 *
 * The 1-minute load average is printed with each run: on a shared machine the figures
 * mean what the load let them. Exits 0 unless a measurement crashed.
 */
import { cpus, loadavg } from 'node:os';
import { killRun } from './engines/kill-run.mjs';
import { overhead } from './engines/overhead.mjs';
import { bullmq, graphileWorker } from './engines/setups.mjs';
import { postgresBin } from './lib/postgres-server.mjs';

const quick = process.env.BENCH_QUICK === '1';
const envNumber = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const createRate = envNumber('BENCH_ENGINES_CREATE_RATE', quick ? 25 : 100);
const plan = {
  items: envNumber('BENCH_ENGINES_ITEMS', quick ? 1_000 : 20_000),
  workers: envNumber('BENCH_ENGINES_WORKERS', 8),
  killEveryMs: envNumber('BENCH_ENGINES_KILL_MS', quick ? 10_000 : 30_000),
  createRate,
  lookupRate: createRate * 4,
  settleMs: 500,
  concurrency: 50,
};
const overheadPlan = {
  items: envNumber('BENCH_ENGINES_OVERHEAD_ITEMS', quick ? 500 : 2_000),
  rounds: 2,
};
const only = process.env.BENCH_ENGINES_ONLY; // 'bullmq' | 'graphile-worker': one engine

console.log(
  `\nJob engines (DESIGN 10.5), ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}: ${plan.items} items on ${plan.workers} workers, one SIGKILLed every ${plan.killEveryMs / 1000} s, the provider capped at ${plan.createRate} creates/s and ${plan.lookupRate} lookups/s`,
);
const crashes = [];
const engines = [bullmq, graphileWorker].filter((e) => !only || e.name === only);
for (const engine of engines) {
  if (engine === graphileWorker && !postgresBin) {
    console.log('  graphile-worker: skipped (PostgreSQL is not installed)');
    continue;
  }
  const run = await killRun(engine, plan);
  printKillRun(run);
  printCpu(run);
  if (run.error || run.createdTwice > 0 || run.final < run.items)
    crashes.push(`${engine.name} kill run`);
  const cost = await overhead(engine, overheadPlan);
  printOverhead(cost);
  if (cost.error) crashes.push(`${engine.name} overhead`);
}
if (crashes.length) console.log(`Crashed or wrong: ${crashes.join('; ')} (see above).`);
// Done: a client's keep-alive socket or a library's reconnect timer must not hold the run.
process.exit(crashes.length ? 1 : 0);

function printKillRun(r) {
  if (r.error) {
    console.log(`  ${r.engine}: the kill run crashed: ${r.error}`);
    return;
  }
  const verdict = r.ratio <= 1.05 ? 'PASS' : 'MISS';
  console.log(
    `  ${r.engine}: ${r.final} of ${r.items} final in ${(r.elapsedMs / 1000).toFixed(1)} s, floor ${(r.floorMs / 1000).toFixed(1)} s: ${r.ratio.toFixed(3)}x (target <= 1.05x: ${verdict}); ${r.kills} SIGKILLs; ${r.createsPerItem.toFixed(3)} creates and ${r.lookupsPerItem.toFixed(3)} lookups per item; ${r.refused} creates refused by the cap; ${r.createdTwice} items created twice; load ${r.load.before.toFixed(2)} -> ${r.load.after.toFixed(2)}; ${r.priority}`,
  );
  const p = r.phases;
  if (!p) return;
  const s = (ms) => (ms / 1000).toFixed(1);
  const starts = r.replacementStartMs.map((ms) => s(ms)).join(', ');
  console.log(
    `    where the time went: ${s(p.beforeFirstCreateMs)} s to the first create; creates over ${s(p.createSpanMs)} s (the cap allows ${s(p.createSpanFloorMs)} s); ${s(p.afterLastCreateMs)} s from the last create to the last item final; ${p.slowSeconds} seconds below 90 % of the cap (${p.createsMissingInSlowSeconds} creates short; ${p.slowAfterKill} of them within ${p.afterKillMs / 1000} s after a SIGKILL, where ${p.secondsAfterKill} of the ${p.seconds} seconds lie); replacements ready in ${starts || '-'} s`,
  );
}

function printCpu(r) {
  const c = r.cpu;
  if (!c?.seconds?.length) return;
  const meanBusy = c.seconds.reduce((sum, x) => sum + x.busyShare, 0) / c.seconds.length;
  const total = Object.values(c.groups).reduce((a, b) => a + b, 0);
  const groups = Object.entries(c.groups)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `${name} ${s.toFixed(0)} s (${((100 * s) / total).toFixed(0)} %)`)
    .join(', ');
  const sat = r.phases?.saturation;
  const slow = sat
    ? `; of the ${r.phases.slowSeconds} slow seconds, ${sat.saturated} with the machine >= ${100 * sat.share} % busy (${sat.all} of all ${sat.samples} seconds were)`
    : '';
  console.log(
    `    CPU (/proc, once a second): the machine ${(100 * meanBusy).toFixed(0)} % busy on average of ${c.cores} cores${slow}; CPU time by process: ${groups}`,
  );
}

function printOverhead(r) {
  if (r.error) {
    console.log(`  ${r.engine} overhead: crashed: ${r.error}`);
    return;
  }
  const { batches: a, jobs: b } = r;
  console.log(
    `  ${r.engine} vs Batches on the same store, ${r.items} items 16 at a time, ${r.rounds} rounds (medians per item):`,
  );
  for (const [kind, m] of [
    ['Batches', a],
    [r.engine, b],
  ]) {
    console.log(
      `    ${kind.padEnd(16)} wall ${m.wallMs.toFixed(2)} ms  cpu ${m.cpuUs.toFixed(0)} µs  creates ${m.creates.toFixed(3)}  lookups ${m.lookups.toFixed(3)}`,
    );
  }
  console.log(
    `    the engine's own cost per job: ${(b.cpuUs - a.cpuUs).toFixed(0)} µs CPU (${(b.cpuUs / a.cpuUs).toFixed(2)}x), ${(b.wallMs - a.wallMs).toFixed(2)} ms wall`,
  );
}
