/**
 * Living under the provider's cap on status lookups (issue 15): a provider serving at most
 * 100 lookups in any second, 429 with `Retry-After: 1` beyond, in its own process. 2,000
 * deposits awaited at once on one client, without a budget (the client learns the cap
 * from the 429s; target: at most 10% of lookups refused) and with `lookupRate: 90`
 * (target: none refused). Every deposit must resolve.
 *
 * Run alone (after `npx tsup`): `node bench/sections/rate-limit.mjs`.
 */
import { fileURLToPath } from 'node:url';
import { quick } from '../lib/config.mjs';
import { forkProvider, runMeasured } from '../lib/processes.mjs';

const PROVIDER_CAP = 100;
const DEPOSITS = quick ? 1_000 : 2_000;
const RUNS = [
  { label: 'no lookupRate', rate: 'none', maxRefusedShare: 0.1 },
  { label: 'lookupRate: 90', rate: 90, maxRefusedShare: 0 },
];

export async function measureRateLimit(node) {
  const provider = await forkProvider('rate-limited-server.mjs', [PROVIDER_CAP]);
  const runs = [];
  try {
    for (const run of RUNS) {
      try {
        const value = await runMeasured('rate-limit.mjs', [provider.url, DEPOSITS, run.rate], {
          execPath: node.execPath,
          server: provider,
          timeoutMs: 300_000,
        });
        runs.push({ ...run, ...value });
      } catch (error) {
        runs.push({ ...run, error: error.message });
      }
    }
  } finally {
    provider.stop();
  }
  return { node: node.label, cap: PROVIDER_CAP, deposits: DEPOSITS, runs };
}

export function printRateLimit(result) {
  console.log(
    `\n## Under the provider's lookup cap (${result.node}): ${result.deposits} deposits awaited at once, provider serves ${result.cap} lookups/s, 429 Retry-After: 1 beyond`,
  );
  for (const run of result.runs) {
    if (run.error) {
      console.log(`- ${run.label}: CRASHED ${run.error.split('\n')[0]}`);
      continue;
    }
    const { served, refused } = run.server;
    const share = refused / Math.max(1, served + refused);
    const ok = run.resolved === run.n && share <= run.maxRefusedShare;
    const failures = Object.entries(run.failures)
      .map(([name, count]) => `${count} ${name}`)
      .join(', ');
    console.log(
      `- ${run.label}: ${run.resolved}/${run.n} resolved${failures ? ` (${failures})` : ''} in ${(run.lastResolvedMs / 1000).toFixed(1)} s; lookups served ${served}, refused ${refused} (${(share * 100).toFixed(1)}%, target at most ${run.maxRefusedShare * 100}%): ${ok ? 'PASS' : 'MISS'}`,
    );
  }
}

const runAlone = process.argv[1] === fileURLToPath(import.meta.url);
if (runAlone) {
  const result = await measureRateLimit({
    label: `node ${process.versions.node}`,
    execPath: process.execPath,
  });
  printRateLimit(result);
  if (result.runs.some((run) => run.error)) process.exitCode = 1;
}
