/**
 * A batch's creating calls are paced by the client's admission stage alone (DESIGN 9.1,
 * "one pacing"): the batch's `createRate` is kept there beside the client's, and a 429
 * pauses every creating call of the client, not one batch.
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

function client(baseUrl: string, options: { createRate?: number; maxRetries?: number } = {}) {
  return new MomoClient({
    ...sim.credentials,
    baseUrl,
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 30_000 },
    ...options,
  });
}

const rows = (prefix: string, n: number): BatchItem[] =>
  Array.from({ length: n }, (_, i) => row(`${prefix}-${i}`, PAYEE.ok));

const creates = () =>
  sim.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
  );

describe('the pacing of a batch: the client admission stage alone', () => {
  it('a batch under a provider cap of 20 creates/s: a handful of 429s at most, and about its floor', async () => {
    const momo = client(await capped(20));
    const n = 100;
    const started = Date.now();
    const report = await new Batches(momo).run(rows('cap', n), {
      id: 'capped',
      store: memoryBatchStore(),
      concurrency: 16,
    });
    const elapsed = Date.now() - started;
    expect(report.summary.successful).toBe(n);
    const refused = creates().filter((r) => r.limited === 'creates').length;
    // The first 429 pauses every creating call of the client until its Retry-After and
    // teaches the stage the rate the provider let through: the calls in flight then are
    // refused too (16 at most), and nothing much after. A pacer per call (each call
    // retrying on its own Retry-After) gets a 429 for most of the 80 rows past the first second.
    expect(refused).toBeLessThanOrEqual(20);
    // Floor: 20 in the first second, then 20/s: 4 s. Generous (a loaded 2-core machine, and
    // the learned rate is 90% of the cap): within 2.5x, where being refused row by row is not.
    expect(elapsed).toBeLessThan(2.5 * ((n - 20) / 20) * 1_000 + 2_000);
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
    // As received (a request's way over loopback varies by a few ms on a loaded machine: one
    // more than the rate in some second is that, not the pacing).
    expect(maxInAnySecond(creates().map((r) => r.at))).toBeLessThanOrEqual(11);
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
    const times = creates().map((r) => r.at);
    expect(times).toHaveLength(60);
    expect(maxInAnySecond(times)).toBeLessThanOrEqual(20);
    // 60 calls at 20/s: at least (60 - 20) / 20 s; each batch alone (15/s) could not go slower.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    const own = (prefix: string) =>
      creates()
        .filter((r) => (r.body as { externalId: string }).externalId.startsWith(`${prefix}-`))
        .map((r) => r.at);
    expect(maxInAnySecond(own('a'))).toBeLessThanOrEqual(15);
    expect(maxInAnySecond(own('b'))).toBeLessThanOrEqual(15);
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
    const posts = creates();
    // The first creating call after the fault was set is the one refused.
    const at = (posts.find((r) => r.at >= injectedAt) as { at: number }).at;
    // Calls already on their way when the 429 was answered may land just after it; past
    // that (a generous 500 ms on a loaded machine), none until its 2 s have passed.
    const during = posts.filter((r) => r.at > at + 500 && r.at < at + 1_900);
    expect(during.map((r) => r.at - at)).toEqual([]);
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
