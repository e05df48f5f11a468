/**
 * The outbox section's tools (sections/outbox.mjs): a schema per part, intents committed
 * one per transaction, a relay's settlements to wait on, a pool the relay cannot LISTEN on.
 */
import { depositBody } from './config.mjs';

export const OPERATION = 'disbursement.deposit';

let runs = 0;
export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one part needs: a schema of its own, its state migrated, keys no other run uses. */
export async function outboxState(createPostgresState, pool, part) {
  const schema = `bench_outbox_${part}_${process.pid}_${++runs}`;
  const db = createPostgresState(pool, { schema });
  await db.migrate();
  return { db, schema, key: (i) => `${part}-${runs}-${i}` };
}

/** One intent, committed in its own transaction; when COMMIT returned (timeOrigin clock). */
export async function commitOne(db, pool, key) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { referenceId } = await db.outbox.enqueue(client, {
      key,
      operation: OPERATION,
      body: { ...depositBody, externalId: key },
    });
    await client.query('COMMIT');
    return { referenceId, committedAt: performance.timeOrigin + performance.now() };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** onSettled for a relay, and `settled(key)` / `count` to wait on it. */
export function settlements() {
  const waiting = new Map();
  const done = new Set();
  let all;
  const tracker = {
    count: 0,
    onSettled: async (payment) => {
      if (done.has(payment.key)) return; // at least once: a repeat counts once
      done.add(payment.key);
      tracker.count++;
      waiting.get(payment.key)?.();
      if (all && tracker.count >= all.n) all.resolve();
    },
    settled: (key) => (done.has(key) ? Promise.resolve() : new Promise((r) => waiting.set(key, r))),
    allOf: (n) =>
      tracker.count >= n ? Promise.resolve() : new Promise((resolve) => (all = { n, resolve })),
  };
  return tracker;
}

/** A pool whose checked-out clients ignore LISTEN: the relay can only poll. */
export function listenless(pool) {
  const quiet = (client) =>
    new Proxy(client, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== 'query') return typeof value === 'function' ? value.bind(target) : value;
        return (text, ...rest) =>
          typeof text === 'string' && /^\s*LISTEN\b/i.test(text)
            ? Promise.resolve({ rows: [], rowCount: 0, command: 'LISTEN' })
            : value.call(target, text, ...rest);
      },
    });
  return new Proxy(pool, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === 'connect') return async () => quiet(await target.connect());
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `n` at a time over `count` indexes. */
export async function pooled(count, n, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < count) await work(next++);
    }),
  );
}
