import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { batchFileName } from '../../batches/batch-id';
import { type Io, UsageError } from '../output';
import { replaceFile } from '../private-file';

import { common, printsFromText, printsToText, union } from './row-prints';

/**
 * The repeat guard (docs/cli.md): `payouts` refuses a file whose rows another batch of
 * the same state folder paid within `--repeat-window`. Each run of a batch (not a dry
 * run) appends one line to that batch's ledger, `<state-dir>/payouts/batch-<id>.jsonl`,
 * flushed before the first send: when it ran, and the prints of its payable rows
 * (row-prints.ts). A run reads the other batches' ledgers before it sends anything.
 */

/** Default `--repeat-window`: a day (a monthly payroll with the same rows is no repeat). */
export const DEFAULT_REPEAT_WINDOW = '24h';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--repeat-window`: a whole number and a unit (`90m`, `24h`, `7d`; `s` too) in ms. */
export function repeatWindowMs(value: string): number {
  const match = /^(\d{1,9})(s|m|h|d)$/.exec(value.trim());
  if (!match) {
    throw new UsageError(
      `--repeat-window must be a whole number and a unit: s, m, h or d (e.g. 24h, 7d), not ${JSON.stringify(value)}`,
    );
  }
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

/**
 * "Now" for the guard: `MOMO_NOW` (an ISO 8601 time) when set, else the system clock.
 * The variable lets a rehearsal or a test run "a month later" (docs/batches.md).
 */
export function guardNow(env: Io['env']): Date {
  const given = env.MOMO_NOW;
  if (!given) return new Date();
  const at = new Date(given);
  if (Number.isNaN(at.getTime())) {
    throw new UsageError(`MOMO_NOW must be an ISO 8601 time (e.g. 2026-12-01T09:00:00Z)`);
  }
  return at;
}

/** One run of a batch, as its ledger line holds it. */
interface LedgerLine {
  at: string;
  operation: string;
  rows: number;
  /** The rows' prints (base64); left out when the same as the line before. */
  prints?: string;
}

/** A batch as its ledger says: when it last ran, and every payable row it was run with. */
export interface LedgerBatch {
  batch: string;
  lastRunAt: Date;
  prints: BigUint64Array;
}

/** The batch another batch's run repeats, with how many rows they share. */
export interface Repeat {
  batch: string;
  at: string;
  /** Rows of this file that batch paid. */
  rows: number;
}

const ledgerDir = (stateDir: string) => join(stateDir, 'payouts');

/** Every line of a ledger that parses (a torn last line, from a crash, is skipped). */
async function readLedger(file: string): Promise<LedgerBatch | undefined> {
  let batch: string | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let prints: BigUint64Array = new BigUint64Array(0);
  const text = await readNoFollow(file);
  for (const line of text.split('\n')) {
    let entry: (LedgerLine & { batch?: string }) | undefined;
    try {
      entry = line ? (JSON.parse(line) as LedgerLine & { batch?: string }) : undefined;
    } catch {
      entry = undefined;
    }
    if (!entry || typeof entry.at !== 'string') continue;
    batch ??= entry.batch;
    const at = Date.parse(entry.at);
    if (!Number.isNaN(at)) last = Math.max(last, at);
    if (typeof entry.prints === 'string') prints = union(prints, printsFromText(entry.prints));
  }
  if (batch === undefined || !Number.isFinite(last)) return undefined;
  return { batch, lastRunAt: new Date(last), prints };
}

/**
 * The other batch of the folder whose rows this file repeats: it ran within `windowMs`
 * of `now` (or after it) and paid any row of this file. Any row, not a share of the file:
 * a share can be diluted (yesterday's 4,000 rows inside a file padded with 6,000 new ones
 * were less than half of it, and were paid again). The one sharing the most rows, or
 * undefined.
 */
export async function findRepeat(
  stateDir: string,
  batch: string,
  prints: BigUint64Array,
  now: Date,
  windowMs: number,
): Promise<Repeat | undefined> {
  const own = ledgerName(batch);
  const names = await readdir(ledgerDir(stateDir)).catch(() => [] as string[]);
  let found: Repeat | undefined;
  for (const name of names) {
    if (name === own || !name.endsWith('.jsonl')) continue;
    const other = await readLedger(join(ledgerDir(stateDir), name));
    if (!other || other.lastRunAt.getTime() <= now.getTime() - windowMs) continue;
    const shared = common(prints, other.prints);
    if (shared === 0) continue;
    if (!found || shared > found.rows) {
      found = { batch: other.batch, at: other.lastRunAt.toISOString(), rows: shared };
    }
  }
  return found;
}

/**
 * Adds this run to the batch's ledger, flushed to disk before anything is sent. Written as
 * the results file is (private-file.ts): the whole ledger to a new private temporary file
 * (exclusive, no-follow, unguessable name, 0600), flushed, renamed over the ledger. A
 * symlink planted at the ledger's (predictable) name is replaced, never followed, and its
 * target neither read nor written; a crash leaves the previous complete ledger.
 */
export async function recordRun(
  stateDir: string,
  batch: string,
  operation: string,
  prints: BigUint64Array,
  now: Date,
): Promise<void> {
  const dir = ledgerDir(stateDir);
  await mkdir(dir, { recursive: true });
  const file = join(dir, ledgerName(batch));
  const text = printsToText(prints);
  const before = await readNoFollow(file);
  const lastPrints = before
    .split('\n')
    .filter((line) => line.includes('"prints"'))
    .pop();
  const same = lastPrints?.includes(`"prints":"${text}"`) === true;
  const line: LedgerLine & { batch: string } = {
    batch,
    at: now.toISOString(),
    operation,
    rows: prints.length,
    ...(same ? {} : { prints: text }),
  };
  // A torn last line (from an older release's append) is ended first, so that this one parses.
  const start = before === '' || before.endsWith('\n') ? '' : '\n';
  await replaceFile(file, `${before}${start}${JSON.stringify(line)}\n`);
}

/** A ledger's text; '' when there is none, or when its name is a symlink (not followed). */
async function readNoFollow(file: string): Promise<string> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(file, flags).catch(() => undefined);
  if (!handle) return '';
  try {
    return (await handle.stat()).isFile() ? await handle.readFile('utf8') : '';
  } finally {
    await handle.close();
  }
}

/** The refusal of a repeat: exit code 2, naming the batch, saying what to do. */
export function repeatMessage(file: string, repeat: Repeat, rows: number, window: string): string {
  return (
    `${file}: ${repeat.rows} of its ${rows} rows (the same payee or payer, amount and currency) ` +
    `were paid by batch ${JSON.stringify(repeat.batch)}, which ran at ${repeat.at}, within ` +
    `--repeat-window ${window}: nothing was sent. To continue that batch, run it with ` +
    `--batch ${repeat.batch}; to pay these rows again, add --allow-repeat.`
  );
}

/** A batch's ledger file: named as its state file is (distinct even by case alone). */
const ledgerName = (batch: string) =>
  batchFileName(batch, (text) => createHash('sha256').update(text).digest('hex'));
