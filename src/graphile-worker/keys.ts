/**
 * The task names and job keys of the SDK's jobs on graphile-worker. One job key per item
 * for all its jobs (the payment, then its lookup): graphile-worker keeps one job per key,
 * so the item's newest job replaces a waiting one, and a key re-added while its job is
 * locked (running, or held by a dead worker) detaches that job (its attempts used up:
 * never run again) and queues a new one.
 */

export const PAY_TASK = 'momo:pay';
export const LOOKUP_TASK = 'momo:lookup';
export const SWEEP_TASK = 'momo:sweep';
export const SUBSCRIPTIONS_TASK = 'momo:subscriptions';

/** Time between a batch's sweeps (./sweep.ts) when the partner set none. */
export const DEFAULT_SWEEP_EVERY_MS = 3_000;

/** graphile-worker's schema when the partner set none. */
export const DEFAULT_WORKER_SCHEMA = 'graphile_worker';

/** The job key of an item's jobs: JSON, so that a batch or key holding ':' cannot collide. */
export function itemJobKey(batch: string, key: string): string {
  return `momo:item:${JSON.stringify([batch, key])}`;
}

/** The job key of a batch's sweep (one waiting at a time). */
export function sweepJobKey(batch: string): string {
  return `momo:sweep:${JSON.stringify(batch)}`;
}

/** What an item's job carries besides the core's data: enough for the sweep to find it. */
export interface ItemJobPayload {
  batch: string;
  key: string;
}

export function isItemJobPayload(payload: unknown): payload is ItemJobPayload {
  const p = payload as Partial<ItemJobPayload> | null;
  return typeof p?.batch === 'string' && typeof p.key === 'string';
}
