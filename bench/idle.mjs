/**
 * Measured child (run with --expose-gc; argv: server url, n): what an idle pending wait
 * retains. n deposits are issued and awaited with `.wait()` at the default polling options
 * while the server keeps them PENDING (settle an hour away). Once all are accepted, the
 * heap is sampled after a full GC every 500 ms for a few seconds while the waits sleep
 * between lookups; the smallest growth over the warmed-up baseline, per wait, is the
 * retention (the larger samples include lookups in flight). Idle keep-alive sockets the
 * client still holds count in it: they are retained because the waits are pending.
 */
import { MomoClient } from 'momo-partner-sdk';
import { sdkOptions } from './clients/sdk.mjs';
import { credentials, depositBody } from './lib/config.mjs';
import { askServer, report } from './lib/processes.mjs';

const [url, nText] = process.argv.slice(2);
const n = Number(nText);
const SAMPLES = 6;
const HOUR_MS = 3_600_000;

const gc = globalThis.gc;
if (!gc) throw new Error('idle.mjs needs --expose-gc');
const settledHeap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const momo = new MomoClient(sdkOptions(url, credentials));
await momo.disbursement.getBalance();
await askServer('reset', HOUR_MS);
const baseline = settledHeap();

const operations = [];
let unexpected = 0;
for (let i = 0; i < n; i++) {
  const operation = momo.disbursement.deposit(depositBody);
  // No wait may end while the bench runs: any settlement is a fault of the set-up.
  operation.wait().then(
    () => unexpected++,
    () => unexpected++,
  );
  operations.push(operation);
}
const accepted = (await Promise.allSettled(operations)).filter((r) => r.status === 'fulfilled');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
await sleep(1_500); // past the first lookup of the last accepted waits
let smallest = Number.POSITIVE_INFINITY;
for (let i = 0; i < SAMPLES; i++) {
  smallest = Math.min(smallest, settledHeap() - baseline);
  await sleep(500);
}
const server = await askServer('stats');
report({
  n,
  accepted: accepted.length,
  unexpected,
  perWaitKB: smallest / 1024 / Math.max(1, accepted.length),
  server,
});
