/**
 * npm run bench (builds first, then measures the built package, as partners run it).
 * Every figure is printed as a ratio against a baseline measured in the same run on
 * the same machine: absolute times on shared machines mean little.
 *
 * 1. 5 000 concurrent waits for deposits settled 1.5 s after the waits start, in memory:
 *    `waitForDeposit` (one shared scheduler) vs a hand-written loop of
 *    `getDeposit` + `setTimeout` per wait with the same delays.
 * 2. 2 000 balance lookups: through the SDK vs the same requests built by hand,
 *    both through the simulator's in-memory fetch: the SDK's overhead per call.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createSimulator } from 'momo-partner-sdk/testing';

const polling = { initialDelayMs: 100, maxDelayMs: 400, timeoutMs: 60_000 };
const payee = { partyIdType: 'MSISDN', partyId: '46733123999' };
const timers = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('Timeout')).length;

async function waits(n, useSdk) {
  const sim = createSimulator({ settleMs: 60_000 });
  const momo = sim.client({ polling });
  const ids = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      (await momo.disbursement.deposit({ amount: '1', currency: 'EUR', payee })).referenceId,
    );
  }
  // Everything settles 1.5 s after the waits start, whatever creating them took.
  setTimeout(() => {
    for (const id of ids) sim.settle(id, 'SUCCESSFUL');
  }, 1_500);
  globalThis.gc?.();
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
  const live = timers();
  globalThis.gc?.(); // count what the waits retain, not garbage
  const sample = { timers: live, heapKiB: (process.memoryUsage().heapUsed - heapBefore) / 1024 };
  const results = await all;
  if (results.some((r) => r.status !== 'SUCCESSFUL')) throw new Error('a wait did not succeed');
  return { ...sample, ms: performance.now() - started };
}

async function lookups(n) {
  const sim = createSimulator();
  const momo = sim.client();
  const token = (await momo.disbursement.getAccessToken()).accessToken;
  const { baseUrl, subscriptionKey, targetEnvironment } = sim.credentials;
  const headers = {
    Authorization: `Bearer ${token}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'X-Target-Environment': targetEnvironment,
  };
  let started = performance.now();
  for (let i = 0; i < n; i++) {
    await (await sim.fetch(`${baseUrl}/disbursement/v1_0/account/balance`, { headers })).json();
  }
  const raw = performance.now() - started;
  started = performance.now();
  for (let i = 0; i < n; i++) await momo.disbursement.getBalance();
  return { raw, sdk: performance.now() - started };
}

const ratio = (a, b) => (b === 0 ? 'n/a' : Number((a / b).toPrecision(2)).toString());
const N = 5_000;
const base = await waits(N, false);
const ours = await waits(N, true);
console.log(`1. ${N} concurrent waits, settled 1.5 s after they start; sampled at 1 s`);
console.log(
  `   live timers   hand loop ${base.timers}, SDK ${ours.timers}   ratio ${ratio(ours.timers, base.timers)}`,
);
console.log(
  `   heap growth   hand loop ${base.heapKiB.toFixed(0)} KiB, SDK ${ours.heapKiB.toFixed(0)} KiB   ratio ${ratio(ours.heapKiB, base.heapKiB)}`,
);
console.log(
  `   wall time     hand loop ${base.ms.toFixed(0)} ms, SDK ${ours.ms.toFixed(0)} ms   ratio ${ratio(ours.ms, base.ms)}`,
);

const M = 2_000;
const { raw, sdk } = await lookups(M);
console.log(`2. ${M} sequential balance lookups, in memory`);
console.log(
  `   by hand ${raw.toFixed(0)} ms, SDK ${sdk.toFixed(0)} ms   ratio ${ratio(sdk, raw)} (${(((sdk - raw) / M) * 1000).toFixed(0)} µs per call on top)`,
);
