import { createHmac } from 'node:crypto';
import { MIN_SECRET_LENGTH } from '../../batches/reference-id';
import { addDecimal } from '../../batches/summary';
import type { BatchReport } from '../../batches/types';
import type { ProductName } from '../../core/options';
import { credentialFromEnv } from '../env';
import { ExitCode, type Io, UsageError } from '../output';
import { formatDuration } from './progress';
import { payoutRecords } from './rows';

/** Seconds allowed for the provider to settle the last rows, in the dry run's estimate. */
export const SETTLE_ALLOWANCE_S = 30;

/**
 * The secret reference ids are derived with: MOMO_BATCH_SECRET when set, else
 * HMAC-SHA256(the product's API key, a fixed label), in hex: the API key itself is never
 * the secret, and the same key gives the same ids on any machine.
 */
export function batchSecret(env: Io['env'], product: ProductName): string {
  const own = env.MOMO_BATCH_SECRET;
  if (own) {
    if (own.length >= MIN_SECRET_LENGTH) return own;
    throw new UsageError(`MOMO_BATCH_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const key = credentialFromEnv(env, product, 'API_KEY').value ?? '';
  return createHmac('sha256', key).update('momo-partner-sdk payouts batch secret v1').digest('hex');
}

/**
 * The exit code of a run that ended: 0 when every row ended; 3 when a row is UNRESOLVED
 * because a call failed (a connection or the provider, after the client's retries);
 * 5 when rows are only still pending at their deadline (a re-run looks them up).
 */
export function exitCodeOf(report: BatchReport): number {
  const open = report.items.filter((item) => item.status === 'UNRESOLVED');
  if (open.length === 0) return ExitCode.ok;
  return open.every((item) => item.reason === 'WAIT_TIMEOUT') ? ExitCode.waitTimeout : ExitCode.api;
}

/** The human summary of a run. */
export function summaryText(batch: string, out: string, report: BatchReport): string {
  const s = report.summary;
  const lines = [
    `payouts ${batch}: ${s.total} rows: ${s.successful} SUCCESSFUL, ${s.failed} FAILED, ${s.rejected} REJECTED, ${s.skipped} SKIPPED, ${s.unresolved} UNRESOLVED`,
  ];
  for (const [currency, sums] of Object.entries(s.amounts)) {
    lines.push(`  ${currency}: ${sums.successful} paid, ${sums.failed} failed`);
  }
  const failures = Object.entries(s.failures).map(([code, n]) => `${code} ${n}`);
  if (failures.length > 0) lines.push(`  failures: ${failures.join(', ')}`);
  if (s.unresolved > 0) {
    lines.push(`  ${s.unresolved} rows not ended: run the same command again to look them up`);
  }
  lines.push(`results: ${out}`);
  return `${lines.join('\n')}\n`;
}

/** What a dry run prints. */
export interface DryRun {
  batch: string;
  dryRun: true;
  rows: number;
  /** Rows that would be sent (or looked up): valid and not ended in an earlier run. */
  toSend: number;
  ended: number;
  rejected: number;
  skipped: number;
  /** Amounts of the rows to send, per currency (exact decimal strings). */
  totals: Record<string, string>;
  estimate: { seconds: number; formula: string };
  /** REJECTED rows: the line and why (the first 20). */
  problems: { line: number; key: string; reason: string }[];
}

/**
 * The dry run's report: totals per currency of the rows to send, and how long the caps
 * make the run take: rows / create rate + rows / lookup rate + a settle allowance (each
 * row one creating call and about one lookup; a rate not given adds nothing).
 */
export async function dryRunOf(
  file: string,
  batch: string,
  report: BatchReport,
  rates: { createRate?: number | undefined; lookupRate?: number | undefined },
): Promise<DryRun> {
  const totals: Record<string, string> = {};
  const problems: DryRun['problems'] = [];
  let index = 0;
  for await (const record of payoutRecords(file)) {
    const item = report.items[index++];
    if (item?.status === 'UNRESOLVED') {
      const { currency = '', amount = '0' } = record.values;
      totals[currency] = addDecimal(totals[currency] ?? '0', amount);
    }
    if (item?.status === 'REJECTED' && problems.length < 20) {
      problems.push({ line: record.line, key: item.key, reason: item.reason ?? '' });
    }
  }
  const s = report.summary;
  const n = s.unresolved;
  const terms = [
    ...(rates.createRate
      ? [[n / rates.createRate, `${n} rows / ${rates.createRate} creates/s`]]
      : []),
    ...(rates.lookupRate
      ? [[n / rates.lookupRate, `${n} rows / ${rates.lookupRate} lookups/s`]]
      : []),
    [n > 0 ? SETTLE_ALLOWANCE_S : 0, `${n > 0 ? SETTLE_ALLOWANCE_S : 0} s to settle`],
  ] as [number, string][];
  const seconds = Math.ceil(terms.reduce((sum, [t]) => sum + t, 0));
  return {
    batch,
    dryRun: true,
    rows: s.total,
    toSend: n,
    ended: s.successful + s.failed,
    rejected: s.rejected,
    skipped: s.skipped,
    totals,
    estimate: { seconds, formula: terms.map(([, text]) => text).join(' + ') },
    problems,
  };
}

export function dryRunText(d: DryRun): string {
  const lines = [
    `payouts ${d.batch} (dry run, nothing sent): ${d.rows} rows: ${d.toSend} to send, ${d.ended} ended in an earlier run, ${d.rejected} REJECTED, ${d.skipped} SKIPPED`,
    ...Object.entries(d.totals).map(([currency, sum]) => `  ${currency}: ${sum} to send`),
    ...d.problems.map(
      (p) => `  REJECTED line ${p.line} (key ${JSON.stringify(p.key)}): ${p.reason}`,
    ),
    `estimate: about ${formatDuration(d.estimate.seconds)} (${d.estimate.formula})`,
  ];
  return `${lines.join('\n')}\n`;
}
