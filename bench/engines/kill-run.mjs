/**
 * The engines bench's run (DESIGN 10.5): N items added as jobs, `workers` worker
 * processes sharing one rate budget, the provider (the SDK's simulator) in its own
 * process with caps, one worker SIGKILLed every `killEveryMs` and a new one started in
 * its place (a crash and the orchestrator's restart). Measured: the time from the first
 * job added to the last item final in the store, against the floor the creating cap
 * sets (items / createRate); creating calls and lookups per item at the provider; items
 * the provider created twice (must be 0) and items not final.
 */
import { loadavg } from 'node:os';
import { saturatedAmong, startCensus } from '../lib/cpu-census.mjs';
import { favourProvider } from '../lib/provider-priority.mjs';
import { forkChild } from './ipc.mjs';

/**
 * `engine`: { name, setup(provider) -> { workerScript, workerInput, add(batch, items),
 * finalCount(batch), stop() } } (bench/engines/setups.mjs).
 */
export async function killRun(engine, plan) {
  const provider = forkChild('provider.mjs');
  const priority = favourProvider(provider.pid);
  const load = { before: loadavg()[0] };
  let setup;
  const live = [];
  let kills = 0;
  try {
    const client = await provider.call('start', {
      settleMs: plan.settleMs,
      limits: { createsPerSecond: plan.createRate, lookupsPerSecond: plan.lookupRate },
    });
    setup = await engine.setup(client, plan);
    const workerPids = new Set();
    const startWorker = async () => {
      const worker = forkChild(setup.workerScript);
      workerPids.add(worker.pid);
      await worker.call('start', setup.workerInput);
      return worker;
    };
    live.push(...(await Promise.all(Array.from({ length: plan.workers }, startWorker))));
    const batch = `bench-${engine.name}`;
    const items = itemsOf(plan.items);
    const census = startCensus((pid) =>
      pid === provider.pid
        ? 'provider'
        : workerPids.has(pid)
          ? 'workers'
          : pid === process.pid
            ? 'bench'
            : undefined,
    );
    const started = performance.now();
    const startedAt = Date.now();
    const killedAt = [];
    const replacementStartMs = [];
    // Each tick kills the oldest live worker and starts its replacement without waiting
    // for it: the kills keep their pace however slowly replacements start (a chain of
    // kill-then-start queued a tick behind the other would fall behind the clock and
    // keep killing after the run).
    const replacing = new Set();
    const timer = setInterval(() => {
      const victim = live.shift();
      if (!victim) return;
      const replacement = (async () => {
        await victim.kill();
        kills++;
        killedAt.push(Date.now());
        const starting = performance.now();
        const worker = await startWorker();
        replacementStartMs.push(performance.now() - starting);
        live.push(worker);
      })().catch((error) => console.error(`  a replacement worker failed: ${error}`));
      replacing.add(replacement);
      replacement.finally(() => replacing.delete(replacement));
    }, plan.killEveryMs);
    await setup.add(batch, items);
    const floorMs = (plan.items / plan.createRate) * 1_000;
    const limitMs = Math.max(5 * floorMs, floorMs + 300_000);
    let final = 0;
    while (performance.now() - started < limitMs) {
      final = await setup.finalCount(batch);
      if (final >= plan.items) break;
      // Each count reads every record of the batch: once a second while most are to come
      // (20,000 records four times a second would compete with the workers for the store),
      // four times a second near the end, where it sets the measured time.
      await new Promise((resolve) => setTimeout(resolve, final < 0.95 * plan.items ? 1_000 : 250));
    }
    const elapsedMs = performance.now() - started;
    const endedAt = Date.now();
    const cpu = census.stop();
    clearInterval(timer);
    await Promise.all([...replacing]);
    load.after = loadavg()[0];
    const counts = await provider.call('counts');
    return {
      engine: engine.name,
      priority,
      items: plan.items,
      workers: plan.workers,
      kills,
      final,
      elapsedMs,
      floorMs,
      ratio: elapsedMs / floorMs,
      createsPerItem: (counts.creates + counts.refused) / plan.items,
      lookupsPerItem: counts.lookups / plan.items,
      refused: counts.refused,
      createdTwice: counts.createdTwice,
      phases: phasesOf(counts, plan.createRate, { startedAt, endedAt, killedAt, cpu }),
      cpu,
      replacementStartMs,
      load,
    };
  } catch (error) {
    return { engine: engine.name, error: String(error?.stack ?? error) };
  } finally {
    await Promise.all(live.splice(0).map((w) => w.close()));
    await setup?.stop();
    await provider.close();
  }
}

/**
 * Where the run's time went beyond the floor: before the first creating call (the jobs
 * added, the workers fetching them), the creating calls' own span against what the cap
 * allows for as many calls, and after the last one (settling, lookups, and items a killed
 * worker held). `slowSeconds` are whole seconds of the create phase below 90 % of the cap,
 * `slowAfterKill` those of them that began within AFTER_KILL_MS after a SIGKILL, and
 * `secondsAfterKill` how many of all the phase's seconds did (what chance alone gives).
 */
const AFTER_KILL_MS = 10_000;
function phasesOf(counts, createRate, { startedAt, endedAt, killedAt, cpu }) {
  const { firstCreateAt, lastCreateAt, createdAt } = counts;
  if (!(createdAt.length > 0)) return undefined;
  const perSecond = new Map();
  for (const at of createdAt) {
    const second = Math.floor((at - firstCreateAt) / 1_000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  const lastSecond = Math.floor((lastCreateAt - firstCreateAt) / 1_000);
  let slowSeconds = 0;
  let afterKill = 0;
  let secondsAfterKill = 0;
  let missing = 0;
  const slowStarts = [];
  for (let second = 0; second < lastSecond; second++) {
    const at = firstCreateAt + second * 1_000;
    const nearKill = killedAt.some((k) => at >= k && at - k < AFTER_KILL_MS);
    if (nearKill) secondsAfterKill++;
    const n = perSecond.get(second) ?? 0;
    if (n >= 0.9 * createRate) continue;
    slowSeconds++;
    slowStarts.push(at);
    missing += createRate - n;
    if (nearKill) afterKill++;
  }
  return {
    beforeFirstCreateMs: firstCreateAt - startedAt,
    createSpanMs: lastCreateAt - firstCreateAt,
    createSpanFloorMs: ((createdAt.length - 1) / createRate) * 1_000,
    afterLastCreateMs: endedAt - lastCreateAt,
    slowSeconds,
    slowAfterKill: afterKill,
    secondsAfterKill,
    seconds: lastSecond,
    afterKillMs: AFTER_KILL_MS,
    createsMissingInSlowSeconds: missing,
    saturation: saturatedAmong(cpu, slowStarts),
  };
}

/** N transfers of 10.00 EUR to one payee, keys `row-<i>`, externalId the key (the provider's count). */
export function itemsOf(count, tag = 'row') {
  return Array.from({ length: count }, (_, i) => ({
    key: `${tag}-${i}`,
    body: {
      amount: '10.00',
      currency: 'EUR',
      externalId: `${tag}-${i}`,
      payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
    },
  }));
}
