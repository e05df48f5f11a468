/**
 * The transactional outbox's figures (issue 26, DESIGN 8.4), part of sections/postgres.mjs.
 * Written against the DESIGN surface: `db.outbox.enqueue(client, { key, operation, body })`
 * in the partner's BEGIN/COMMIT, `db.outbox.start(momo, { concurrency, onSettled,
 * pollIntervalMs })`, `relay.stop()`. Against the bench server (bench/server.mjs, its own
 * process; deposits final at once), every figure from this run:
 *
 * a. Cost per payment: N deposits, 16 at a time, each enqueued in its own transaction
 *    while one relay (concurrency 16) sends them and waits each to SUCCESSFUL, against
 *    the in-memory path: the same N deposits sent by `momo.disbursement.deposit`, 16
 *    creating calls at a time, each awaited (`wait()`), journal in memory. ms per
 *    payment, and the ratio.
 * b. Latency from COMMIT returning to the creating request reaching the server, one intent
 *    at a time, with LISTEN/NOTIFY (the relay polling every 1 s besides) and with polling
 *    alone (every 1 s: the relay's LISTEN connection is given a client that ignores
 *    LISTEN; each commit at a random phase of the poll). The server notes each creation's arrival on `performance.timeOrigin +
 *    now()`, the clock this process reads at COMMIT. p50 and p99.
 * c. Throughput: N intents committed first (transactions of 100), then one relay
 *    (concurrency 16) sends them all and waits each to its final status: intents/s.
 *
 * Until the build's state has `outbox`, every line says "outbox: not built".
 */
import { credentials, depositBody, limits, quick, targets } from '../lib/config.mjs';
import {
  commitOne,
  listenless,
  OPERATION,
  outboxState,
  pause,
  pooled,
  settlements,
} from '../lib/outbox-intents.mjs';
import { percentile } from '../lib/stats.mjs';
import { dec, int, ratio } from '../lib/table.mjs';

export const outboxPlan = {
  costPayments: quick ? 500 : 2_000,
  notifyIntents: quick ? 50 : 200,
  pollingIntents: quick ? 10 : 20,
  pollIntervalMs: 1_000,
  throughputIntents: quick ? 1_000 : 3_000,
  concurrency: 16,
};

const NOT_BUILT = 'outbox: not built';
/** The relay's waits look their deposit up soon: the bench server settles at once. */
const POLLING = { initialDelayMs: 5, maxDelayMs: 100, timeoutMs: 60_000 };

/** a. ms per payment through the outbox and through the in-memory path. */
async function cost({ pool, server, createPostgresState, momo }) {
  const n = outboxPlan.costPayments;
  const { concurrency } = outboxPlan;
  await server.reset(0);
  let started = performance.now();
  const waits = [];
  await pooled(n, concurrency, async () => {
    const payment = await momo.disbursement.deposit(depositBody);
    waits.push(payment.wait()); // as the relay's: a wait holds no sending slot
  });
  await Promise.all(waits);
  const directMs = (performance.now() - started) / n;
  const { db, key } = await outboxState(createPostgresState, pool, 'cost');
  const tracker = settlements();
  const relay = db.outbox.start(momo, { concurrency, onSettled: tracker.onSettled });
  try {
    await server.reset(0);
    started = performance.now();
    await pooled(n, concurrency, (i) => commitOne(db, pool, key(i)));
    await tracker.allOf(n);
    const outboxMs = (performance.now() - started) / n;
    return { n, directMs, outboxMs, ratio: outboxMs / directMs };
  } finally {
    await relay.stop();
    await db.close();
  }
}

/** b. COMMIT -> creating request at the server, one intent at a time. */
async function latency({ pool, server, createPostgresState, momo }, mode) {
  const n = mode === 'notify' ? outboxPlan.notifyIntents : outboxPlan.pollingIntents;
  const on = mode === 'notify' ? pool : listenless(pool);
  const { db, key } = await outboxState(createPostgresState, on, mode);
  const tracker = settlements();
  const relay = db.outbox.start(momo, {
    concurrency: outboxPlan.concurrency,
    onSettled: tracker.onSettled,
    pollIntervalMs: outboxPlan.pollIntervalMs,
  });
  const committed = new Map();
  try {
    await server.reset(0, { arrivals: true });
    // First intent: the relay's LISTEN is in place (or its first poll is behind it).
    await commitOne(db, pool, key('first'));
    await tracker.settled(key('first'));
    for (let i = 0; i < n; i++) {
      // Polling: commit at a random phase of the relay's poll (one at a time right after
      // a settle would always land just after a poll, and wait a whole interval).
      if (mode === 'polling') await pause(Math.random() * outboxPlan.pollIntervalMs);
      const { referenceId, committedAt } = await commitOne(db, pool, key(i));
      committed.set(referenceId.toLowerCase(), committedAt);
      await tracker.settled(key(i));
    }
  } finally {
    await relay.stop();
    await db.close();
  }
  const arrivals = await server.arrivals();
  const ms = [...committed].map(([id, at]) => arrivals[id] - at).sort((a, b) => a - b);
  return { n, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), max: ms.at(-1) };
}

/** c. A committed backlog drained by one relay: intents/s, and creates the server saw. */
async function throughput({ pool, server, createPostgresState, momo }) {
  const n = outboxPlan.throughputIntents;
  const { db, key } = await outboxState(createPostgresState, pool, 'throughput');
  for (let from = 0; from < n; from += 100) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (let i = from; i < Math.min(n, from + 100); i++) {
        const body = { ...depositBody, externalId: key(i) };
        await db.outbox.enqueue(client, { key: key(i), operation: OPERATION, body });
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  await server.reset(0);
  const tracker = settlements();
  const started = performance.now();
  const relay = db.outbox.start(momo, {
    concurrency: outboxPlan.concurrency,
    onSettled: tracker.onSettled,
  });
  try {
    await tracker.allOf(n);
    const elapsedMs = performance.now() - started;
    const { requests, duplicates } = await server.stats();
    return {
      n,
      elapsedMs,
      perSecond: (n / elapsedMs) * 1_000,
      creates: requests.create,
      duplicates,
    };
  } finally {
    await relay.stop();
    await db.close();
  }
}

/**
 * The outbox's figures, or { missing } when the build has no `db.outbox`. `pool`: a pg
 * Pool on the bench's PostgreSQL; `server`: the bench server; `createPostgresState`: the
 * built package's.
 */
export async function measureOutbox({ pool, server, createPostgresState }) {
  const probe = createPostgresState(pool, { schema: 'bench_probe' });
  if (typeof probe.outbox?.enqueue !== 'function' || typeof probe.outbox?.start !== 'function') {
    return { missing: NOT_BUILT };
  }
  const { MomoClient } = await import('momo-partner-sdk');
  const momo = new MomoClient({ baseUrl: server.url, ...credentials, ...limits, polling: POLLING });
  const context = { pool, server, createPostgresState, momo };
  return {
    cost: await cost(context),
    notify: await latency(context, 'notify'),
    polling: await latency(context, 'polling'),
    throughput: await throughput(context),
  };
}

/** [name, measure(outbox result), pass, shown] rows for the targets table. */
export function outboxTargets() {
  const ms = (v) => `${dec(v, 1)} ms`;
  return [
    [
      `outbox COMMIT -> creating request, LISTEN/NOTIFY: p50 <= ${targets.outboxNotifyP50Ms} ms`,
      (r) => r.notify?.p50,
      (v) => v <= targets.outboxNotifyP50Ms,
      ms,
    ],
    [
      `outbox COMMIT -> creating request, LISTEN/NOTIFY: p99 <= ${targets.outboxNotifyP99Ms} ms`,
      (r) => r.notify?.p99,
      (v) => v <= targets.outboxNotifyP99Ms,
      ms,
    ],
    [
      `outbox relay >= ${targets.outboxPerSecond} intents/s to a fast server`,
      (r) => r.throughput?.perSecond,
      (v) => v >= targets.outboxPerSecond,
      (v) => `${int(v)}/s`,
    ],
  ];
}

export function printOutbox(result) {
  const lines = [
    'b. Outbox cost per payment (enqueue in a transaction + relay, vs deposit + wait in memory)',
    'c. Outbox COMMIT -> creating request, LISTEN/NOTIFY',
    'd. Outbox COMMIT -> creating request, polling alone',
    'e. Outbox relay throughput (committed backlog, one relay, fast server)',
  ];
  if (result.error) {
    console.log(`b-e. outbox: CRASHED ${result.error.split('\n')[0]}`);
    return;
  }
  if (result.missing) {
    for (const line of lines) console.log(`${line}: ${result.missing}`);
    return;
  }
  const { cost: a, notify, polling, throughput: t } = result;
  const every = `every ${outboxPlan.pollIntervalMs} ms`;
  console.log(
    `${lines[0]}: ${int(a.n)} payments, ${outboxPlan.concurrency} at a time: outbox ${dec(a.outboxMs, 3)} ms, in memory ${dec(a.directMs, 3)} ms   ${ratio(a.ratio)}`,
  );
  console.log(
    `${lines[1]} (polling ${every} besides): p50 ${dec(notify.p50, 2)} ms, p99 ${dec(notify.p99, 2)} ms, max ${dec(notify.max, 2)} ms (${notify.n} intents; targets p50 <= ${targets.outboxNotifyP50Ms} ms, p99 <= ${targets.outboxNotifyP99Ms} ms)`,
  );
  console.log(
    `${lines[2]} (${every}): p50 ${dec(polling.p50, 1)} ms, p99 ${dec(polling.p99, 1)} ms (${polling.n} intents)`,
  );
  console.log(
    `${lines[3]}: ${int(t.n)} intents in ${dec(t.elapsedMs / 1_000, 2)} s = ${int(t.perSecond)}/s (concurrency ${outboxPlan.concurrency}; target >= ${targets.outboxPerSecond}/s); the server saw ${int(t.creates)} creates, ${t.duplicates} duplicates`,
  );
}
