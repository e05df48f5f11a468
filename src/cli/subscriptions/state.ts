import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SubscriptionStore } from '../../contracts/subscription-store';
import { MIN_SECRET_LENGTH } from '../../payments/ids';
import { fileSubscriptionStore } from '../../subscriptions/file-store';
import type { ParsedCommand } from '../args';
import { type Io, UsageError } from '../output';
import { batchSecret } from '../payouts/summary';
import { openStore } from '../reconcile/stores';

/** Where `subscriptions due|run|report` find the subscriptions. */
export interface SubscriptionState {
  /** How the output names it (a URL without its password, or the folder). */
  dir: string;
  store: SubscriptionStore;
  /** Lets go of a Redis or PostgreSQL connection. */
  close(): Promise<void>;
}

/**
 * `--store file:<dir> | redis://... | postgres://...` (as `reconcile --from-store`: the
 * subscription store of `createRedisState` or `createPostgresState`, `?prefix=` and
 * `?schema=` as there), else the file store under `--state-dir`.
 */
export async function openSubscriptionState(args: ParsedCommand): Promise<SubscriptionState> {
  const where = args.text('store');
  if (where === undefined) return { ...subscriptionState(args), close: async () => {} };
  if (args.text('state-dir') !== undefined) {
    throw new UsageError('Give --store or --state-dir, not both');
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(where)?.[1]?.toLowerCase();
  const isFile = scheme === undefined || scheme === 'file' || scheme.length === 1;
  if (isFile) {
    const dir = scheme === 'file' ? where.slice('file:'.length) : where;
    return { ...folderStore(join(dir, 'subscriptions')), close: async () => {} };
  }
  const opened = await openStore(where, '--store');
  return { dir: opened.label, store: opened.subscriptionStore, close: () => opened.close() };
}

/**
 * The file store under `--state-dir` (default `.momo`), as `payouts` keeps its batches
 * under `<state-dir>/batches`. A folder that does not exist is bad usage (exit code 2): a
 * mistyped `--state-dir` in a cron job must not read as "nothing is due".
 */
export function subscriptionState(args: ParsedCommand): Omit<SubscriptionState, 'close'> {
  return folderStore(join(args.text('state-dir') ?? '.momo', 'subscriptions'));
}

function folderStore(dir: string): Omit<SubscriptionState, 'close'> {
  if (!existsSync(dir)) {
    throw new UsageError(
      `No subscriptions under ${dir}: give the --state-dir (or --store file:<dir>) your code's fileSubscriptionStore(...) folder is in`,
    );
  }
  return { dir, store: fileSubscriptionStore(dir) };
}

/**
 * The secret the reference ids are derived with: MOMO_SUBSCRIPTION_SECRET (the one your
 * code gives `new Subscriptions(momo, { secret })`) when set, else the batches' (MOMO_BATCH_SECRET, else a
 * key derived from the API key).
 */
export function subscriptionSecret(env: Io['env']): string {
  const own = env.MOMO_SUBSCRIPTION_SECRET;
  if (own === undefined || own === '') return batchSecret(env, 'collection');
  if (own.length < MIN_SECRET_LENGTH) {
    throw new UsageError(
      `MOMO_SUBSCRIPTION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`,
    );
  }
  return own;
}

/** An ISO 8601 time given to a flag, or a UsageError naming it. */
export function isoTime(value: string, flag: string): Date {
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw new UsageError(
      `${flag} must be an ISO 8601 time (e.g. 2026-12-01T09:00:00Z), not ${JSON.stringify(value)}`,
    );
  }
  return at;
}
