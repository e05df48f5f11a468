/**
 * Measured child (argv: server url, n, lookupRate or "none"): n deposits issued at once on
 * one SDK client and awaited with `.wait()` at the default polling options, against a
 * provider refusing lookups beyond its cap (rate-limited-server.mjs).
 *
 * Reports how many resolved (and why the others did not), the time to the last result,
 * and the provider's counts: lookups served and refused.
 */
import { MomoClient } from 'momo-partner-sdk';
import { sdkOptions } from './clients/sdk.mjs';
import { credentials, depositBody } from './lib/config.mjs';
import { askServer, report } from './lib/processes.mjs';

const [url, nText, rateText] = process.argv.slice(2);
const n = Number(nText);
const lookupRate = rateText === 'none' ? undefined : Number(rateText);
const DEADLINE_MS = 240_000;

const momo = new MomoClient({
  ...sdkOptions(url, credentials),
  ...(lookupRate === undefined ? {} : { lookupRate }),
});
await momo.disbursement.getAccessToken();
await askServer('reset');

const started = Date.now();
let resolved = 0;
let lastResolved = 0;
const failures = {};
const waits = [];
for (let i = 0; i < n; i++) {
  waits.push(
    momo.disbursement
      .deposit(depositBody)
      .wait({ timeoutMs: DEADLINE_MS })
      .then(
        () => {
          resolved++;
          lastResolved = Date.now();
        },
        (error) => {
          const name = error?.name ?? String(error);
          failures[name] = (failures[name] ?? 0) + 1;
        },
      ),
  );
}
await Promise.all(waits);
const server = await askServer('stats');
report({
  n,
  lookupRate: lookupRate ?? null,
  resolved,
  failures,
  lastResolvedMs: lastResolved ? lastResolved - started : undefined,
  server,
});
