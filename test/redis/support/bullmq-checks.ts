import type { Queue } from 'bullmq';
import type { BatchRecord, BatchStore } from 'momo-partner-sdk';
import type { BatchReport } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import { TRANSFERS } from '../../support/batch-processes';
import type {
  CreatingCall,
  HeldTransaction,
  ProviderProcess,
} from '../../support/provider-process';

/** The store's records of `batch`, by key. */
export async function recordsOf(
  store: BatchStore,
  batch: string,
): Promise<Map<string, BatchRecord>> {
  const records = new Map<string, BatchRecord>();
  for await (const r of (await store.open(batch)).records()) records.set(r.key, r);
  return records;
}

const FINAL = new Set(['SUCCESSFUL', 'FAILED', 'REJECTED']);

/**
 * Resolves once `total` items of `batch` are final in the store and the queue has no
 * job waiting, active or delayed (counted, not timed); rejects after `limitMs`.
 */
export async function untilAllFinal(
  store: BatchStore,
  queue: Queue,
  batch: string,
  total: number,
  limitMs: number,
): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const records = await recordsOf(store, batch);
    const final = [...records.values()].filter((r) => FINAL.has(r.outcome?.status ?? '')).length;
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    const open = Object.values(counts).reduce((a, b) => a + b, 0);
    if (final >= total && open === 0) return;
    if (Date.now() > until) {
      throw new Error(`${final} of ${total} final, ${open} jobs open after ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resolves once the queue has no job waiting, active or delayed. */
export async function untilDrained(queue: Queue, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((n) => n === 0)) return;
    if (Date.now() > until) throw new Error(`jobs still open: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * What the provider saw (counted in its own process) against the stored report: every
 * item not REJECTED created exactly once, under the report's reference id, every
 * creating call for it under that one id, its status the provider's; a REJECTED item
 * never reached it. Returns the creating calls and transactions read.
 */
export async function expectReportAgreesWithProvider(
  provider: ProviderProcess,
  report: BatchReport,
): Promise<{ calls: CreatingCall[]; transactions: HeldTransaction[] }> {
  const calls = await provider.creates(TRANSFERS);
  const transactions = await provider.transactions();
  const callsOf = group(calls);
  const createdOf = group(transactions);
  for (const item of report.items) {
    const mine = callsOf.get(item.key) ?? [];
    const created = createdOf.get(item.key) ?? [];
    if (item.status === 'REJECTED') {
      expect(created, `${item.key}: REJECTED, never created`).toEqual([]);
      continue;
    }
    const id = item.referenceId?.toLowerCase();
    expect(
      created.map((t) => t.referenceId),
      `${item.key}: created once`,
    ).toEqual([id]);
    expect(item.status, item.key).toBe(created[0]?.status);
    expect(new Set(mine.map((c) => c.referenceId)), `${item.key}: one id`).toEqual(new Set([id]));
  }
  return { calls, transactions };
}

function group<T extends { key: string | undefined }>(list: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const entry of list) {
    if (entry.key === undefined) continue;
    map.set(entry.key, [...(map.get(entry.key) ?? []), entry]);
  }
  return map;
}
