/**
 * The tenant layer's cost per call (bench/tenants.mjs, part 3), on the built package, in a
 * process of its own once the other parts' processes are gone. Sequential balance lookups
 * on the simulator's in-memory fetch (no network) through three arms:
 * - `bare`: a MomoClient;
 * - `control`: a second bare MomoClient, identical: its ratio to `bare` is the noise floor;
 * - `tenants`: `(await tenants.client(id)).disbursement.getBalance()`, the LRU hit each call.
 * Each round runs a short block of every arm's calls in turn, the order rotated round by
 * round; per arm, wall time (performance.now) and CPU time (process.cpuUsage, user +
 * system) summed over the run. The ratio of the totals is the figure; the same ratio per
 * group of consecutive rounds gives its spread (median and middle half). Also the CPU time
 * of `await tenants.client(id)` alone (an LRU hit), per call. Prints one JSON line.
 */
import { MomoClient } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { median, percentile } from '../lib/stats.mjs';

const rounds = Number(process.argv[2] ?? 600);
const block = Number(process.argv[3] ?? 50);
const GROUPS = 10;

const sim = createSimulator();
const { baseUrl, targetEnvironment, subscriptionKey, apiUser } = sim.credentials;
const credentials = { baseUrl, targetEnvironment, subscriptionKey, apiUser: { ...apiUser } };
const bare = new MomoClient({ ...credentials, fetch: sim.fetch });
const control = new MomoClient({ ...credentials, fetch: sim.fetch });
const tenants = new Tenants({ resolve: () => credentials, client: { fetch: sim.fetch } });
const arms = {
  bare: () => bare.disbursement.getBalance(),
  control: () => control.disbursement.getBalance(),
  tenants: async () => (await tenants.client('merchant-42')).disbursement.getBalance(),
};
const names = Object.keys(arms);

/** Wall and CPU time, in µs, of `count` sequential calls of `call`. */
async function timed(call, count) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await call();
  const wall = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: used.user + used.system };
}

// Warm-up: tokens fetched, code optimised, the tenant's client made.
for (const name of names) await timed(arms[name], 20 * block);

// Short blocks, the arms interleaved and their order rotated: a GC pause, a neighbour's
// burst or the simulator's growing record lands on every arm alike. Totals per arm over
// the whole run, and per group of consecutive rounds for the spread.
const totals = Object.fromEntries(names.map((name) => [name, { wall: 0, cpu: 0 }]));
const groups = Array.from({ length: GROUPS }, () =>
  Object.fromEntries(names.map((name) => [name, { wall: 0, cpu: 0 }])),
);
for (let round = 0; round < rounds; round++) {
  const group = groups[Math.floor((round * GROUPS) / rounds)];
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    const took = await timed(arms[name], block);
    for (const sum of [totals[name], group[name]]) {
      sum.wall += took.wall;
      sum.cpu += took.cpu;
    }
  }
}
const calls = rounds * block;
const ratios = { tenants: { wall: [], cpu: [] }, control: { wall: [], cpu: [] } };
for (const group of groups) {
  for (const arm of ['tenants', 'control']) {
    ratios[arm].wall.push(group[arm].wall / group.bare.wall);
    ratios[arm].cpu.push(group[arm].cpu / group.bare.cpu);
  }
}

const spread = (arm, kind, values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const total = totals[arm][kind] / totals.bare[kind];
  return {
    total,
    median: median(sorted),
    p25: percentile(sorted, 0.25),
    p75: percentile(sorted, 0.75),
  };
};
// The layer alone: the LRU hit, awaited, with no call behind it.
const hits = 200_000;
const lookup = await timed(() => tenants.client('merchant-42'), hits);
lookup.wall /= hits;
lookup.cpu /= hits;

const result = {
  rounds,
  block,
  calls,
  groups: GROUPS,
  perCall: Object.fromEntries(
    names.map((name) => [name, { wall: totals[name].wall / calls, cpu: totals[name].cpu / calls }]),
  ),
  tenants: {
    wall: spread('tenants', 'wall', ratios.tenants.wall),
    cpu: spread('tenants', 'cpu', ratios.tenants.cpu),
  },
  control: {
    wall: spread('control', 'wall', ratios.control.wall),
    cpu: spread('control', 'cpu', ratios.control.cpu),
  },
  clientLookup: { calls: hits, wall: lookup.wall, cpu: lookup.cpu },
};
tenants.close();
bare.close();
control.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
