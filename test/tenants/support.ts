import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { Instance } from '../redis/support/instances';
import { ARRIVAL_JITTER_MS, mostInWindow } from '../support/sliding-window';
import type { Arrival, TenantCredentials } from './workers/partners-provider';
import type { RunnerInit } from './workers/tenant-runner';

const PROVIDER = fileURLToPath(new URL('./workers/partners-provider.ts', import.meta.url));
const RUNNER = fileURLToPath(new URL('./workers/tenant-runner.ts', import.meta.url));

/** Per key and all keys together, each class: every one binds (4 keys x 4 > 10). */
export const RATES = { perKey: 4, total: 10 };
/** The provider (own process) with `tenants` partners, and `count` aggregator processes. */
export async function startProcesses(tenants: number, count: number) {
  const [provider, ...runners] = await Promise.all([
    Instance.spawn(PROVIDER),
    ...Array.from({ length: count }, () => Instance.spawn(RUNNER)),
  ]);
  const started = await (provider as Instance).call<{
    url: string;
    targetEnvironment: string;
    tenants: TenantCredentials[];
  }>('start', { tenants, settleMs: 10 });
  return { provider: provider as Instance, runners, ...started };
}

export type Processes = Awaited<ReturnType<typeof startProcesses>>;

export function initAll(
  processes: Processes,
  store: RunnerInit['store'],
  rates: Pick<RunnerInit, 'createRate' | 'lookupRate' | 'globalLimits'>,
) {
  const { url, targetEnvironment, tenants } = processes;
  return Promise.all(
    processes.runners.map((runner) =>
      runner.call('init', { baseUrl: url, targetEnvironment, tenants, store, ...rates }),
    ),
  );
}

/** Most in any sliding second (less the jitter of reading a clock), per key and all keys, by class. */
function mostOf(times: { key: string; kind: string; at: number }[], keys: string[]) {
  const window = 1_000 - ARRIVAL_JITTER_MS;
  const figures: Record<string, number> = {};
  for (const kind of ['create', 'lookup']) {
    const ofKind = times.filter((t) => t.kind === kind);
    figures[`${kind} per key`] = Math.max(
      ...keys.map((key) =>
        mostInWindow(
          ofKind.filter((t) => t.key === key).map((t) => t.at),
          window,
        ),
      ),
    );
    figures[`${kind} all`] = mostInWindow(
      ofKind.map((t) => t.at),
      window,
    );
    // The overall window binds: more than one key's worth in some second (not merely slow).
    figures[`${kind} all, a full second`] = mostInWindow(
      ofKind.map((t) => t.at),
      1_000 + ARRIVAL_JITTER_MS,
    );
  }
  return figures;
}

/**
 * Every process bursts 6 deposits and 6 balances per tenant at once. Each key's creating
 * calls and lookups stay under the key's rate, and all keys' under the overall one, in any
 * sliding second: when the processes let them go (their onRequest hooks, on the machine's
 * one clock: the budget's work), and as the provider counted them on arrival, where a
 * loaded machine may stamp together two requests sent apart (one request of tolerance, less
 * than a missing window would add: 4 keys x 4 = 16 against 10).
 */
export async function expectNestedCapsAtProvider(processes: Processes, store: RunnerInit['store']) {
  await initAll(processes, store, {
    createRate: RATES.perKey,
    lookupRate: RATES.perKey,
    globalLimits: { createRate: RATES.total, lookupRate: RATES.total },
  });
  await Promise.all(processes.runners.map((runner) => runner.call('sends')));
  const done = await Promise.all(
    processes.runners.map((runner) =>
      runner.call<{ ok: number; failed: string[] }>('burst', { deposits: 6, balances: 6 }),
    ),
  );
  expect(done.flatMap((d) => d.failed)).toEqual([]);
  const keys = processes.tenants.map((t) => t.subscriptionKey);
  const arrivals = await processes.provider.call<Arrival[]>('arrivals');
  const sends = (
    await Promise.all(
      processes.runners.map((runner) =>
        runner.call<{ key: string; kind: string; at: number }[]>('sends'),
      ),
    )
  ).flat();
  // Every call of every process reached the provider once.
  const each = processes.runners.length * keys.length * 6;
  for (const kind of ['create', 'lookup']) {
    expect(arrivals.filter((a) => a.kind === kind)).toHaveLength(each);
    expect(sends.filter((s) => s.kind === kind)).toHaveLength(each);
  }
  const sent = mostOf(sends, keys);
  const counted = mostOf(arrivals, keys);
  console.info(
    `most in any sliding second: sent ${JSON.stringify(sent)}; at the provider ${JSON.stringify(counted)}`,
  );
  for (const kind of ['create', 'lookup']) {
    expect(sent[`${kind} per key`]).toBeLessThanOrEqual(RATES.perKey);
    // Strict: each reservation is counted at the store as late as its process may send it
    // (its clock mapping's spread: docs/assumptions.md TR6).
    expect(sent[`${kind} all`]).toBeLessThanOrEqual(RATES.total);
    expect(counted[`${kind} per key`]).toBeLessThanOrEqual(RATES.perKey + 1);
    expect(counted[`${kind} all`]).toBeLessThanOrEqual(RATES.total + 1);
    expect(sent[`${kind} all, a full second`]).toBeGreaterThan(RATES.perKey);
  }
}

/**
 * Two processes queue `each` deposits of tenant 0 at 20/s (its key's rate and the overall
 * one); once 20 reached the provider, a third process sends tenant 1's single deposit.
 * Counted at the provider: tenant 0's creating calls between the moment the single payment
 * was asked for and its arrival.
 */
export async function bigBatchAheadOfSingle(
  processes: Processes,
  store: RunnerInit['store'],
  each: number,
) {
  await initAll(processes, store, {
    createRate: 20,
    lookupRate: 20,
    globalLimits: { createRate: 20 },
  });
  const [big, small] = processes.tenants.map((t) => t.subscriptionKey) as [string, string];
  const [a, b, c] = processes.runners as [Instance, Instance, Instance];
  await c.call('warm', { key: small });
  const batches = [a, b].map((runner) =>
    runner.call<{ ok: number }>('batch', { key: big, count: each }),
  );
  while ((await processes.provider.call<number>('createsOf', { key: big })) < 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const before = await processes.provider.call<number>('createsOf', { key: big });
  await c.call('single', { key: small });
  const arrivals = (await processes.provider.call<Arrival[]>('arrivals')).filter(
    (x) => x.kind === 'create',
  );
  const single = arrivals.findIndex((x) => x.key === small && x.externalId === 'single');
  const bigBefore = arrivals.slice(0, single).filter((x) => x.key === big).length;
  const done = await Promise.all(batches);
  return { ahead: bigBefore - before, before, sent: done.reduce((s, d) => s + d.ok, 0) };
}
