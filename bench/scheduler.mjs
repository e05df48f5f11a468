/**
 * Measured child (run with --expose-gc; argv: n): n concurrent waits on deposits that the
 * simulator settles 1.5 s after the waits start, all in memory (the simulator's fetch): the
 * SDK's `waitForDeposit` (one shared scheduler timer) against a hand-written loop of
 * `getDeposit` + `setTimeout` per wait with the same delays. Sampled at 1 s, mid-wait:
 * live timers and heap growth; then the wall time until every wait has ended.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createSimulator } from 'momo-partner-sdk/testing';
import { report } from './lib/processes.mjs';

const n = Number(process.argv[2]);
const polling = { initialDelayMs: 100, maxDelayMs: 400, timeoutMs: 60_000 };
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' };
const timers = () =>
  process.getActiveResourcesInfo().filter((name) => name.startsWith('Timeout')).length;

async function waits(useSdk) {
  const sim = createSimulator({ settleMs: 600_000 }); // settled by the bench, never by itself
  const momo = sim.client({ polling });
  const ids = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      (await momo.disbursement.deposit({ amount: '1', currency: 'EUR', payee })).referenceId,
    );
  }
  // Everything settles 1.5 s after the waits start, whatever creating them took.
  const settle = setTimeout(() => {
    for (const id of ids) sim.settle(id, 'SUCCESSFUL');
  }, 1_500);
  globalThis.gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const handLoop = async (id) => {
    for (let delay = polling.initialDelayMs; ; delay = Math.min(polling.maxDelayMs, delay * 2)) {
      await sleep(delay);
      const result = await momo.disbursement.getDeposit(id);
      if (result.status !== 'PENDING') return result;
    }
  };
  const all = Promise.all(
    ids.map((id) => (useSdk ? momo.disbursement.waitForDeposit(id) : handLoop(id))),
  );
  await sleep(1_000); // mid-wait: everything pending, most waits asleep
  const live = timers(); // the bench's settling timer included
  globalThis.gc(); // count what the waits retain, not garbage
  const heapKiB = (process.memoryUsage().heapUsed - heapBefore) / 1024;
  const results = await all;
  clearTimeout(settle);
  if (results.some((r) => r.status !== 'SUCCESSFUL')) throw new Error('a wait did not succeed');
  return { timers: live, heapKiB, ms: performance.now() - started };
}

const handLoop = await waits(false);
const sdk = await waits(true);
report({ n, handLoop, sdk });
