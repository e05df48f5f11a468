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
import { forkChild } from './ipc.mjs';

/**
 * `engine`: { name, setup(provider) -> { workerScript, workerInput, add(batch, items),
 * finalCount(batch), stop() } } (bench/engines/setups.mjs).
 */
export async function killRun(engine, plan) {
  const provider = forkChild('provider.mjs');
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
    const startWorker = async () => {
      const worker = forkChild(setup.workerScript);
      await worker.call('start', setup.workerInput);
      return worker;
    };
    live.push(...(await Promise.all(Array.from({ length: plan.workers }, startWorker))));
    const batch = `bench-${engine.name}`;
    const items = itemsOf(plan.items);
    const started = performance.now();
    let killing = Promise.resolve();
    const timer = setInterval(() => {
      killing = killing.then(async () => {
        const victim = live.shift();
        if (!victim) return;
        await victim.kill();
        kills++;
        live.push(await startWorker());
      });
    }, plan.killEveryMs);
    await setup.add(batch, items);
    const floorMs = (plan.items / plan.createRate) * 1_000;
    const limitMs = Math.max(5 * floorMs, floorMs + 300_000);
    let final = 0;
    while (performance.now() - started < limitMs) {
      final = await setup.finalCount(batch);
      if (final >= plan.items) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const elapsedMs = performance.now() - started;
    clearInterval(timer);
    await killing;
    load.after = loadavg()[0];
    const counts = await provider.call('counts');
    return {
      engine: engine.name,
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
