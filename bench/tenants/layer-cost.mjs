/**
 * The tenant layer's cost per call (bench/tenants.mjs, part 3), on the built package, in a
 * process of its own once the other parts' processes are gone. Sequential balance lookups
 * on the simulator's in-memory fetch (no network) through three arms:
 * - `bare`: a MomoClient;
 * - `control`: a second bare MomoClient, identical: its ratio to `bare` is the noise floor;
 * - `tenants`: `(await tenants.client(id)).disbursement.getBalance()`, the LRU hit each call.
 * Each round runs every arm's calls in turn, the order rotated round by round; per arm,
 * wall time (performance.now) and CPU time (process.cpuUsage, user + system) per call.
 * Ratios are taken within a round (same load), and their median over the rounds reported,
 * with the middle half of them (p25-p75). Also the CPU time of `await tenants.client(id)`
 * alone (an LRU hit), per call. Prints one JSON line.
 */
import { MomoClient } from 'momo-partner-sdk';
import { Tenants } from 'momo-partner-sdk/tenants';
import { createSimulator } from 'momo-partner-sdk/testing';
import { median, percentile } from '../lib/stats.mjs';

const rounds = Number(process.argv[2] ?? 41);
const calls = Number(process.argv[3] ?? 1_000);

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

/** Wall and CPU time per call, in µs, of `count` sequential calls of `call`. */
async function timed(call, count) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await call();
  const wall = ((performance.now() - started) * 1000) / count;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / count };
}

// Warm-up: tokens fetched, code optimised, the tenant's client made.
for (const name of names) await timed(arms[name], calls);

const samples = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
const ratios = { tenants: { wall: [], cpu: [] }, control: { wall: [], cpu: [] } };
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  const took = {};
  for (const name of order) took[name] = await timed(arms[name], calls);
  for (const name of names) {
    samples[name].wall.push(took[name].wall);
    samples[name].cpu.push(took[name].cpu);
  }
  for (const arm of ['tenants', 'control']) {
    ratios[arm].wall.push(took[arm].wall / took.bare.wall);
    ratios[arm].cpu.push(took[arm].cpu / took.bare.cpu);
  }
}

const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: median(sorted), p25: percentile(sorted, 0.25), p75: percentile(sorted, 0.75) };
};
// The layer alone: the LRU hit, awaited, with no call behind it.
const hits = 200_000;
const lookup = await timed(() => tenants.client('merchant-42'), hits);

const result = {
  rounds,
  calls,
  perCall: Object.fromEntries(
    names.map((name) => [
      name,
      { wall: median(samples[name].wall), cpu: median(samples[name].cpu) },
    ]),
  ),
  tenants: { wall: spread(ratios.tenants.wall), cpu: spread(ratios.tenants.cpu) },
  control: { wall: spread(ratios.control.wall), cpu: spread(ratios.control.cpu) },
  clientLookup: { calls: hits, wall: lookup.wall, cpu: lookup.cpu },
};
tenants.close();
bare.close();
control.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
