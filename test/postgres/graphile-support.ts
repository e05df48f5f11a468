/**
 * graphile-worker as a partner runs it, for the engine tests: worker processes
 * (test/postgres/workers/graphile-worker.ts) that a test SIGKILLs, graphile-worker's
 * schema migrated once per test, and the batch store read from the test's own pool.
 */
import { fileURLToPath } from 'node:url';
import type { BatchRecord, BatchStore } from 'momo-partner-sdk';
import type { BatchReport } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import { Instance } from '../redis/support/instances';
import { TRANSFERS } from '../support/batch-processes';
import type { ProviderProcess } from '../support/provider-process';
import type { GraphileWorkerInput } from './workers/graphile-worker';

export type { GraphileWorkerInput } from './workers/graphile-worker';

const WORKER = fileURLToPath(new URL('./workers/graphile-worker.ts', import.meta.url));

/** graphile-worker's job table, as a test reads it (its own schema's private tables). */
export interface JobRow {
  identifier: string;
  key: string | null;
  locked: boolean;
}

/** One worker process running graphile-worker with the SDK's tasks. */
export async function startWorker(input: GraphileWorkerInput): Promise<Instance> {
  const instance = await Instance.spawn(WORKER);
  await instance.call('start', input);
  return instance;
}

/**
 * `count` worker processes; every `killEveryMs` the oldest live one is SIGKILLed and a new
 * one started in its place (a crash and the orchestrator's restart: the kills keep their
 * pace however slowly the replacements start), until `stop()`.
 */
export class KilledWorkers {
  kills = 0;
  readonly #input: GraphileWorkerInput;
  readonly #live: Instance[] = [];
  readonly #starting = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #killing: Promise<void> = Promise.resolve();

  constructor(input: GraphileWorkerInput) {
    this.#input = input;
  }

  async start(count: number, killEveryMs: number): Promise<void> {
    const started = await Promise.all(
      Array.from({ length: count }, () => startWorker(this.#input)),
    );
    this.#live.push(...started);
    this.#timer = setInterval(() => {
      this.#killing = this.#killing.then(() => this.#killOne());
    }, killEveryMs);
  }

  async #killOne(): Promise<void> {
    const victim = this.#live.shift();
    if (this.#timer === undefined || !victim) return;
    await victim.kill();
    this.kills++;
    const replacement = startWorker(this.#input).then((worker) => {
      this.#live.push(worker);
    });
    this.#starting.add(replacement);
    void replacement.finally(() => this.#starting.delete(replacement));
  }

  /** Stops killing, then closes every live worker (the replacements starting too). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#killing;
    await Promise.allSettled([...this.#starting]);
    await Promise.all(this.#live.splice(0).map((w) => w.close()));
  }
}

/** The batch's records in the store, by key. */
export async function recordsOf(
  store: BatchStore,
  batch: string,
): Promise<Map<string, BatchRecord>> {
  const records = new Map<string, BatchRecord>();
  for await (const r of (await store.open(batch)).records()) records.set(r.key, r);
  return records;
}

const FINAL = new Set(['SUCCESSFUL', 'FAILED', 'REJECTED']);

/** How many of the batch's items have a final outcome in the store (REJECTED included). */
export async function finalCount(store: BatchStore, batch: string): Promise<number> {
  let final = 0;
  for (const r of (await recordsOf(store, batch)).values()) {
    if (r.outcome && FINAL.has(r.outcome.status)) final++;
  }
  return final;
}

/** Polls every 500 ms until `count` items of the batch are final; throws after `withinMs`. */
export async function untilFinal(
  store: BatchStore,
  batch: string,
  count: number,
  withinMs: number,
): Promise<void> {
  let final = 0;
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    final = await finalCount(store, batch);
    if (final >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${final} of ${count} items final after ${withinMs} ms`);
}

/** graphile-worker's rows of the SDK's item jobs (`momo:item:` keys, or retired ones). */
export async function itemJobRows(
  pool: { query(text: string): Promise<{ rows: unknown[] }> },
  workerSchema: string,
): Promise<(JobRow & { lockedBy: string | null; attempts: number; maxAttempts: number })[]> {
  const { rows } = await pool.query(
    `SELECT t.identifier, j.key, j.locked_at IS NOT NULL AS locked, j.locked_by AS "lockedBy",
            j.attempts, j.max_attempts AS "maxAttempts"
       FROM "${workerSchema}"._private_jobs j JOIN "${workerSchema}"._private_tasks t ON t.id = j.task_id
      WHERE t.identifier IN ('momo:pay', 'momo:lookup')`,
  );
  return rows as (JobRow & { lockedBy: string | null; attempts: number; maxAttempts: number })[];
}

/** Polls every 250 ms until no item job waits or runs under a key (`withinMs` at most). */
export async function untilDrained(
  pool: { query(text: string): Promise<{ rows: unknown[] }> },
  workerSchema: string,
  withinMs = 60_000,
): Promise<void> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    const rows = await itemJobRows(pool, workerSchema);
    if (!rows.some((r) => r.key !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`item jobs still queued after ${withinMs} ms`);
}

/**
 * What the provider (in its own process) saw against the report read from the store:
 * each item not REJECTED created exactly once, under the report's reference id, every
 * creating call for it under that id, the report giving the provider's status; a REJECTED
 * item never reached it. A second creating call under the same id (answered 409, adopted)
 * only for an item whose worker died between its send and its record: at most `twice`.
 * Resolves to the number of creating calls.
 */
export async function expectCreatedOnce(
  provider: ProviderProcess,
  report: BatchReport,
  twice: number,
): Promise<number> {
  const calls = await provider.creates(TRANSFERS);
  const callsOf = group(calls);
  const created = group(await provider.transactions());
  let sentTwice = 0;
  for (const item of report.items) {
    const mine = callsOf.get(item.key) ?? [];
    if (item.status === 'REJECTED') {
      expect(mine, item.key).toEqual([]);
      expect(created.has(item.key), item.key).toBe(false);
      continue;
    }
    const id = item.referenceId?.toLowerCase();
    const once = created.get(item.key) ?? [];
    expect(
      once.map((t) => t.referenceId),
      `${item.key}: created once`,
    ).toEqual([id]);
    expect(item.status, item.key).toBe(once[0]?.status);
    expect(new Set(mine.map((c) => c.referenceId)), item.key).toEqual(new Set([id]));
    if (mine.length > 1) sentTwice++;
  }
  expect(sentTwice).toBeLessThanOrEqual(twice);
  return calls.length;
}

function group<T extends { key: string | undefined }>(list: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const entry of list) {
    if (entry.key !== undefined) map.set(entry.key, [...(map.get(entry.key) ?? []), entry]);
  }
  return map;
}
