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

/**
 * Every process bursts 6 deposits and 6 balances per tenant at once; at the provider,
 * each key's creating calls and lookups stay under the key's rate, and all keys' under the
 * overall one, in any sliding second (less the arrival jitter); the overall cap is reached.
 */
export async function expectNestedCapsAtProvider(processes: Processes, store: RunnerInit['store']) {
  await initAll(processes, store, {
    createRate: RATES.perKey,
    lookupRate: RATES.perKey,
    globalLimits: { createRate: RATES.total, lookupRate: RATES.total },
  });
  const done = await Promise.all(
    processes.runners.map((runner) =>
      runner.call<{ ok: number; failed: string[] }>('burst', { deposits: 6, balances: 6 }),
    ),
  );
  expect(done.flatMap((d) => d.failed)).toEqual([]);
  const arrivals = await processes.provider.call<Arrival[]>('arrivals');
  const window = 1_000 - ARRIVAL_JITTER_MS;
  const keys = processes.tenants.map((t) => t.subscriptionKey);
  const figures: Record<string, number> = {};
  for (const kind of ['create', 'lookup'] as const) {
    const ofKind = arrivals.filter((a) => a.kind === kind);
    // Every call of every process reached the provider once (the budget lets none be lost).
    expect(ofKind).toHaveLength(processes.runners.length * keys.length * 6);
    for (const key of keys) {
      const most = mostInWindow(
        ofKind.filter((a) => a.key === key).map((a) => a.at),
        window,
      );
      figures[`${kind} per key`] = Math.max(figures[`${kind} per key`] ?? 0, most);
      expect(most).toBeLessThanOrEqual(RATES.perKey);
    }
    const all = ofKind.map((a) => a.at);
    figures[`${kind} all`] = mostInWindow(all, window);
    expect(figures[`${kind} all`]).toBeLessThanOrEqual(RATES.total);
    // The overall window binds: more than one key's worth went in some second.
    expect(mostInWindow(all, 1_000 + ARRIVAL_JITTER_MS)).toBeGreaterThan(RATES.perKey);
  }
  console.info(`most in any sliding second at the provider: ${JSON.stringify(figures)}`);
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
