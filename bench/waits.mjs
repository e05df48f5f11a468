/**
 * Measured child (argv: server url, n, settleMs): n `deposit(...)` calls issued at once on
 * one SDK client, each awaited with `.wait()` at the default polling options, against the
 * bench server settling each deposit `settleMs` after it accepted it.
 *
 * Reports: how many resolved (and why the others did not), the peak RSS growth over the
 * warmed-up baseline (sampled every 50 ms), the time to the last 202 and to the last
 * result, the detection lag (result seen minus settle time, from the server's
 * `benchSettledAt`), and the server's counts over the run (connections, peak open sockets,
 * lookups).
 */
import { MomoClient } from 'momo-partner-sdk';
import { sdkOptions } from './clients/sdk.mjs';
import { credentials, depositBody } from './lib/config.mjs';
import { askServer, report } from './lib/processes.mjs';
import { percentile } from './lib/stats.mjs';

const [url, nText, settleText] = process.argv.slice(2);
const n = Number(nText);
const DEADLINE_MS = 150_000; // a run that has not finished by then is reported as such

const momo = new MomoClient(sdkOptions(url, credentials));
await momo.disbursement.getBalance(); // token fetched, a connection open, code loaded
await askServer('reset', Number(settleText));
globalThis.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  try {
    peak = Math.max(peak, process.memoryUsage().rss);
  } catch {
    // Reading RSS opens a file: with every descriptor taken by sockets (EMFILE) a sample is
    // lost, and the calls failing for the same reason are what the run reports.
  }
}, 50);

const started = Date.now();
let lastAccepted = 0;
let lastResolved = 0;
let resolved = 0;
const failures = {};
const lags = [];
const waits = [];
for (let i = 0; i < n; i++) {
  const operation = momo.disbursement.deposit(depositBody);
  operation.then(
    () => {
      lastAccepted = Date.now();
    },
    () => {},
  );
  waits.push(
    operation.wait().then(
      (result) => {
        const now = Date.now();
        resolved++;
        lastResolved = now;
        if (typeof result.benchSettledAt === 'number') lags.push(now - result.benchSettledAt);
      },
      (error) => {
        const name = error?.name ?? String(error);
        failures[name] = (failures[name] ?? 0) + 1;
      },
    ),
  );
}
let timer;
const finished = await Promise.race([
  Promise.all(waits).then(() => true),
  new Promise((resolve) => {
    timer = setTimeout(resolve, DEADLINE_MS, false);
  }),
]);
clearTimeout(timer);
clearInterval(sampler);
const server = await askServer('stats');
lags.sort((a, b) => a - b);
report({
  n,
  finished,
  resolved,
  failures,
  peakRssGrowthMB: (peak - baseline) / 2 ** 20,
  lastAcceptedMs: lastAccepted ? lastAccepted - started : undefined,
  lastResolvedMs: lastResolved ? lastResolved - started : undefined,
  lagP50Ms: percentile(lags, 0.5),
  lagP99Ms: percentile(lags, 0.99),
  server,
});
