/**
 * An engine's own cost per job against `Batches` on the same store, in the same run
 * (DESIGN 10.5): the simulator served on loopback in this process (settleMs 0, no caps),
 * one store (Redis for BullMQ, PostgreSQL for graphile-worker), the same N items 16 at a
 * time through a. `new Batches(momo).run(items, { store, concurrency: 16 })` and b. the
 * engine's jobs run by a worker in this process (concurrency 16) until every item is
 * final in the store. Per item: wall time and this process's CPU (the SDK, the engine,
 * the simulator; the store's server is another process, counted in neither), creating
 * calls and lookups. Rounds alternate the order; medians.
 */
import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { createSimulator } from 'momo-partner-sdk/testing';
import { median } from '../lib/stats.mjs';
import { itemsOf } from './kill-run.mjs';
import { finalIn } from './setups.mjs';

export async function overhead(engine, { items: n, rounds }) {
  const sim = createSimulator({ settleMs: 0 });
  const listening = await sim.listen({ port: 0 });
  const momo = new MomoClient({
    ...sim.credentials,
    baseUrl: listening.url,
    polling: { initialDelayMs: 20, maxDelayMs: 100 },
  });
  let setup;
  try {
    setup = await engine.inProcess(momo);
    const results = { batches: [], engine: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ['batches', 'engine'] : ['engine', 'batches'];
      for (const kind of order) {
        const batch = `${kind}-${round}`;
        const list = itemsOf(n, batch);
        results[kind].push(
          await measure(sim, n, async () => {
            if (kind === 'batches') {
              const options = {
                id: batch,
                store: setup.store,
                secret: setup.secret,
                concurrency: 16,
              };
              await new Batches(momo).run(list, options);
              return;
            }
            await setup.add(batch, list);
            while ((await finalIn(setup.store, batch)) < n) {
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }),
        );
      }
    }
    const row = (kind) => {
      const m = (field) => median(results[kind].map((r) => r[field]));
      return {
        wallMs: m('wallMs'),
        cpuUs: m('cpuUs'),
        creates: m('creates'),
        lookups: m('lookups'),
      };
    };
    return { engine: engine.name, items: n, rounds, batches: row('batches'), jobs: row('engine') };
  } catch (error) {
    return { engine: engine.name, error: String(error?.stack ?? error) };
  } finally {
    await setup?.stop();
    await listening.close();
  }
}

async function measure(sim, n, body) {
  const before = sim.requests.length;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await body();
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const requests = sim.requests.slice(before);
  const creates = requests.filter(
    (r) => r.method === 'POST' && r.path.includes('/transfer'),
  ).length;
  const lookups = requests.filter(
    (r) => r.method === 'GET' && r.path.includes('/transfer/'),
  ).length;
  return {
    wallMs: wallMs / n,
    cpuUs: (user + system) / n,
    creates: creates / n,
    lookups: lookups / n,
  };
}
