import type {
  StoredSubscription,
  Subscription,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { ValidationError } from '../errors';
import { DueIndex, ofTenant } from './due-index';

/** node:fs, node:path and node:crypto, loaded at first use: the main entry imports no Node module. */
const fs = () => process.getBuiltinModule('node:fs');
const path = () => process.getBuiltinModule('node:path');
const crypto = () => process.getBuiltinModule('node:crypto');

/**
 * Subscriptions in a folder: one JSON file per subscription (`subs/<sha-256 of the key>.json`,
 * the same on a case-insensitive file system) and per plan, and the due index in
 * `due.json` (key → dueAt), read once and rewritten with each write. Every file is written
 * whole to a temporary file, flushed, then renamed over the old one: a crash leaves the
 * old file or the new, never a torn one. One process per folder (the compare-and-set is
 * this process's).
 */
export function fileSubscriptionStore(dir: string): SubscriptionStore {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new ValidationError([{ path: 'dir', message: 'must be a folder path' }]);
  }
  let index: DueIndex | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** One write at a time: a compare-and-set and the index's rewrite are one step. */
  const serial = <T>(work: () => T): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  const file = (kind: 'subs' | 'plans', id: string) =>
    path().join(dir, kind, `${crypto().createHash('sha256').update(id).digest('hex')}.json`);
  const loadIndex = (): DueIndex => {
    if (index) return index;
    const loaded = new DueIndex();
    const stored = readJson<Record<string, number>>(path().join(dir, 'due.json')) ?? {};
    for (const [key, at] of Object.entries(stored)) loaded.set(key, at);
    index = loaded;
    return loaded;
  };
  const read = (key: string) => readJson<StoredSubscription>(file('subs', key));
  return {
    async putPlan(plan) {
      await serial(() => writeAtomic(file('plans', plan.id), plan));
    },
    async getPlan(id) {
      return readJson<SubscriptionPlan>(file('plans', id));
    },
    async get(key) {
      return read(key);
    },
    put(subscription, expected) {
      return serial(() => {
        const current = read(subscription.key)?.version;
        if (current !== expected) return undefined;
        const version = (current ?? 0) + 1;
        writeAtomic(file('subs', subscription.key), { subscription, version });
        const due = loadIndex();
        if (due.get(subscription.key) !== subscription.dueAt) {
          due.set(subscription.key, subscription.dueAt);
          writeAtomic(path().join(dir, 'due.json'), due);
        }
        return version;
      });
    },
    async due(now, limit, tenant) {
      if (tenant === undefined) return loadIndex().due(now, limit);
      // The tenant is in each record, not the index: the due ones read (a folder is small).
      return loadIndex().due(now, limit, (key) => ofTenant(read(key)?.subscription, tenant));
    },
    async list(filter = {}) {
      const out: Subscription[] = [];
      const keys =
        filter.dueBefore !== undefined
          ? loadIndex().due(filter.dueBefore - 1, Number.MAX_SAFE_INTEGER)
          : allFiles(path().join(dir, 'subs'));
      for (const entry of keys) {
        const row =
          filter.dueBefore !== undefined
            ? read(entry)
            : readJson<StoredSubscription>(path().join(dir, 'subs', entry));
        if (!row || (filter.status !== undefined && row.subscription.status !== filter.status))
          continue;
        if (filter.tenant !== undefined && !ofTenant(row.subscription, filter.tenant)) continue;
        out.push(row.subscription);
        if (filter.limit !== undefined && out.length >= filter.limit) break;
      }
      return out;
    },
  };
}

function allFiles(folder: string): string[] {
  try {
    return fs()
      .readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
}

function readJson<T>(file: string): T | undefined {
  let text: string;
  try {
    text = fs().readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text) as T;
}

/**
 * Writes `value` as JSON to a temporary file, flushes it, renames it over `file`. The
 * temporary file is new (created exclusively, never through a link someone planted) and
 * named at random, so that nobody can predict it.
 */
function writeAtomic(file: string, value: unknown): void {
  const f = fs();
  f.mkdirSync(path().dirname(file), { recursive: true });
  const temporary = `${file}.${globalThis.crypto.randomUUID()}.tmp`;
  const { O_CREAT, O_EXCL, O_WRONLY, O_NOFOLLOW = 0 } = f.constants;
  const fd = f.openSync(temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
  try {
    f.writeSync(fd, JSON.stringify(value));
    f.fsyncSync(fd);
  } finally {
    f.closeSync(fd);
  }
  f.renameSync(temporary, file);
}
