/**
 * A batch's creating calls are paced by the client's admission stage alone (docs/architecture.md,
 * "one pacing"): the batch's `createRate` is kept there beside the client's, and a 429
 * pauses every creating call of the client, not one batch.
 *
 * Rates are read where the stage lets a call go (the client's `onRequest` hook, in the
 * same chain of promises as the stage's decision), not where the simulator receives it:
 * on a loaded machine a request's way over loopback stalls with the event loop, and
 * calls let go a second apart can arrive together. No duration is asserted but lower
 * bounds (pacing only ever makes a run slower).
 */
import { MomoClient } from 'momo-partner-sdk';
import { Batches, type BatchItem, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { PAYEE, row } from './harness';

let sim: Simulator;
let server: ListeningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A simulator whose gateway lets at most `createsPerSecond` creating calls through in any sliding second. */
async function capped(createsPerSecond?: number) {
  sim = createSimulator({
    settleMs: 20,
    ...(createsPerSecond === undefined ? {} : { limits: { createsPerSecond } }),
  });
  server = await sim.listen();
  return server.url;
}

/** When the stage let each creating call go (first attempts and retries), by reference id. */
let letGo: { referenceId: string | undefined; at: number }[] = [];
/** When the client read each 429 answer to a creating call. */
let refusedAt: number[] = [];

function client(baseUrl: string, options: { createRate?: number; maxRetries?: number } = {}) {
  letGo = [];
  refusedAt = [];
  return new MomoClient({
    ...sim.credentials,
    baseUrl,
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 30_000 },
    hooks: {
      onRequest: ({ operation, referenceId }) => {
        if (operation === 'disbursement.transfer') letGo.push({ referenceId, at: Date.now() });
      },
      onResponse: ({ operation, status }) => {
        if (operation === 'disbursement.transfer' && status === 429) refusedAt.push(Date.now());
      },
    },
    ...options,
  });
}

/** The times the stage let go the creating calls whose body's externalId starts with `prefix`. */
function letGoOf(prefix?: string): number[] {
  if (prefix === undefined) return letGo.map((call) => call.at);
  const ids = new Set(
    creates()
      .filter((r) => (r.body as { externalId: string }).externalId.startsWith(`${prefix}-`))
      .map((r) => r.headers['x-reference-id']),
  );
  return letGo.filter((call) => ids.has(call.referenceId)).map((call) => call.at);
}

const rows = (prefix: string, n: number): BatchItem[] =>
  Array.from({ length: n }, (_, i) => row(`${prefix}-${i}`, PAYEE.ok));

const creates = () =>
  sim.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
  );

describe('the pacing of a batch: the client admission stage alone', () => {
  it('a batch under a provider cap of 20 creates/s: a handful of 429s at most (one pause, not a refusal per row)', async () => {
    const momo = client(await capped(20));
    const n = 100;
    const report = await new Batches(momo).run(rows('cap', n), {
      id: 'capped',
      store: memoryBatchStore(),
      concurrency: 16,
    });
    expect(report.summary.successful).toBe(n);
    const refused = creates().filter((r) => r.limited === 'creates').length;
    // The first 429 pauses every creating call of the client until its Retry-After and
    // teaches the stage the rate the provider let through: the calls in flight then are
    // refused too (16 at most), and nothing much after. A pacer per call (each call
    // retrying on its own Retry-After) gets a 429 for most of the 80 rows past the first second.
    // (Counted, not timed: a run slowed by a loaded machine is refused no more often.)
    expect(refused).toBeLessThanOrEqual(20);
  }, 60_000);

  it("a batch's createRate is kept by the admission stage: within its rate in any sliding second", async () => {
    const momo = client(await capped(20));
    const started = Date.now();
    const report = await new Batches(momo).run(rows('own', 30), {
      id: 'own-rate',
      store: memoryBatchStore(),
      concurrency: 16,
      createRate: 10,
    });
    expect(report.summary.successful).toBe(30);
    expect(creates().filter((r) => r.limited !== undefined)).toEqual([]);
    // As let go (the hook reads the clock a moment after the stage did: two calls let go
    // exactly a second apart may read 999 ms apart, one more than the rate, no more).
    expect(letGoOf()).toHaveLength(30);
    expect(maxInAnySecond(letGoOf())).toBeLessThanOrEqual(11);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // 30 at 10/s: 2 s at least
  }, 60_000);

  it("two batches on one client share the client's createRate (each also within its own)", async () => {
    const momo = client(await capped(), { createRate: 20 });
    const started = Date.now();
    const [a, b] = await Promise.all([
      new Batches(momo).run(rows('a', 30), { id: 'a', store: memoryBatchStore(), createRate: 15 }),
      new Batches(momo).run(rows('b', 30), { id: 'b', store: memoryBatchStore(), createRate: 15 }),
    ]);
    expect(a.summary.successful + b.summary.successful).toBe(60);
    const times = letGoOf();
    expect(times).toHaveLength(60);
    expect(maxInAnySecond(times)).toBeLessThanOrEqual(21); // the hook's moment, as above
    // 60 calls at 20/s: at least (60 - 20) / 20 s; each batch alone (15/s) could not go slower.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(maxInAnySecond(letGoOf('a'))).toBeLessThanOrEqual(16);
    expect(maxInAnySecond(letGoOf('b'))).toBeLessThanOrEqual(16);
  }, 60_000);

  it("a 429 during a batch pauses the client's creating calls, another batch's too: one pause", async () => {
    const momo = client(await capped(), { maxRetries: 0 });
    const runs = Promise.all([
      new Batches(momo).run(rows('a', 40), { id: 'a', store: memoryBatchStore(), createRate: 20 }),
      new Batches(momo).run(rows('b', 40), { id: 'b', store: memoryBatchStore(), createRate: 20 }),
    ]);
    while (creates().length < 30) await new Promise((resolve) => setTimeout(resolve, 5));
    const injectedAt = Date.now();
    sim.inject({
      match: 'POST /disbursement/v1_0/transfer',
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '2' },
    });
    const [a, b] = await runs;
    expect(a.summary.successful + b.summary.successful).toBe(80);
    expect(creates().find((r) => r.at >= injectedAt)).toBeDefined();
    // One 429 (the fault is one-shot); from the moment the client read it, the stage
    // admits no creating call of either batch until its 2 s have passed. Counted, not
    // timed: the calls it admitted before may still reach the wire during the pause on a
    // loaded machine (each batch's 8 in flight at most: 16); without the pause the two
    // batches' 40 calls a second would send some 70 in that window.
    expect(refusedAt).toHaveLength(1);
    const at = refusedAt[0] as number;
    const during = letGo.filter((call) => call.at > at && call.at < at + 1_900);
    expect(during.length).toBeLessThanOrEqual(16);
  }, 60_000);
});

/** The most calls at these times in any sliding second. */
function maxInAnySecond(times: number[]): number {
  const sorted = [...times].sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= 1_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
