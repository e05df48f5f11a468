/**
 * graphile-worker's own cost per job against `Batches` on the same store (DESIGN 10.5):
 * the built package (`npm run build` first), a scratch PostgreSQL of its own
 * (bench/lib/postgres-server.mjs), the simulator served on loopback in this process
 * (settleMs 0, no caps), one batch store (`createPostgresState(pool).batchStore`).
 *
 * Per round, the same N items (BENCH_GW_ITEMS, default 2,000), 16 at a time:
 * a. `new Batches(momo).run(items, { id, store, concurrency: 16 })`;
 * b. `addPayments(workerUtils, ...)`, then graphile-worker 0.17's `run({ concurrency: 16,
 *    taskList: paymentTasks(momo, ...) })` in this process until every item is final in
 *    the store (polled every 50 ms) and its jobs are gone.
 * Each: wall time and this process's CPU (process.cpuUsage: the SDK, graphile-worker, the
 * simulator) per item, creating calls and lookups per item at the simulator. Rounds
 * alternate the order (BENCH_GW_ROUNDS, default 2); medians. Not part of `npm run bench`
 * yet; alone: `npm run build && node bench/graphile-worker.mjs`.
 */

import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { addPayments, paymentTasks } from 'momo-partner-sdk/graphile-worker';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createSimulator } from 'momo-partner-sdk/testing';
import pg from 'pg';
import { ScratchPostgres } from './lib/postgres-server.mjs';
import { median } from './lib/stats.mjs';

const N = Number(process.env.BENCH_GW_ITEMS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_GW_ROUNDS ?? 2);
const SECRET = 'bench-graphile-worker-secret';
const quiet = new Logger(() => () => {});

const items = (round, kind) =>
  Array.from({ length: N }, (_, i) => ({
    key: `row-${i}`,
    body: {
      amount: '10.00',
      currency: 'EUR',
      externalId: `${kind}-${round}-${i}`,
      payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
    },
  }));

async function measure(sim, body) {
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
    wallMs: wallMs / N,
    cpuUs: (user + system) / N,
    creates: creates / N,
    lookups: lookups / N,
  };
}

async function allFinal(store, batch) {
  let final = 0;
  for await (const r of (await store.open(batch)).records()) {
    if (r.outcome?.status === 'SUCCESSFUL' || r.outcome?.status === 'FAILED') final++;
  }
  return final === N;
}

const server = await ScratchPostgres.start();
const pool = new pg.Pool({ ...server.config, max: 20 });
pool.on('error', () => {});
const sim = createSimulator({ settleMs: 0 });
const listening = await sim.listen({ port: 0 });
const momo = new MomoClient({
  ...sim.credentials,
  baseUrl: listening.url,
  polling: { initialDelayMs: 20, maxDelayMs: 100 },
});
const state = createPostgresState(pool, { schema: 'momo_bench' });
await state.migrate();
const store = state.batchStore;
const utils = await makeWorkerUtils({ pgPool: pool, schema: 'gw_bench', logger: quiet });
await utils.migrate();
const runner = await run({
  pgPool: pool,
  schema: 'gw_bench',
  concurrency: 16,
  pollInterval: 200,
  noHandleSignals: true,
  logger: quiet,
  taskList: paymentTasks(momo, { secret: SECRET, store, workerSchema: 'gw_bench' }),
});

const results = { batches: [], graphile: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['batches', 'graphile'] : ['graphile', 'batches'];
  for (const kind of order) {
    const batch = `${kind}-${round}`;
    const list = items(round, kind);
    results[kind].push(
      await measure(sim, async () => {
        if (kind === 'batches') {
          await new Batches(momo).run(list, { id: batch, store, secret: SECRET, concurrency: 16 });
          return;
        }
        await addPayments(utils, { batch, items: list, secret: SECRET });
        while (!(await allFinal(store, batch))) await new Promise((r) => setTimeout(r, 50));
      }),
    );
  }
}
await runner.stop();
await utils.release();
await listening.close();
await pool.end();
await server.dispose();

const row = (kind) => {
  const m = (field) => median(results[kind].map((r) => r[field]));
  return {
    kind,
    wallMs: m('wallMs'),
    cpuUs: m('cpuUs'),
    creates: m('creates'),
    lookups: m('lookups'),
  };
};
const a = row('batches');
const b = row('graphile');
console.log(
  `graphile-worker vs Batches, ${N} items, 16 at a time, ${ROUNDS} rounds (medians per item)`,
);
for (const r of [a, b]) {
  console.log(
    `  ${r.kind.padEnd(9)} wall ${r.wallMs.toFixed(2)} ms  cpu ${r.cpuUs.toFixed(0)} µs  creates ${r.creates.toFixed(3)}  lookups ${r.lookups.toFixed(3)}`,
  );
}
console.log(
  `  graphile-worker's own cost per job: ${(b.cpuUs - a.cpuUs).toFixed(0)} µs CPU (${(b.cpuUs / a.cpuUs).toFixed(2)}x), ${(b.wallMs - a.wallMs).toFixed(2)} ms wall`,
);
