import { createHmac } from 'node:crypto';
import type { BatchReport } from '../../batches/types';
import type { ProductName } from '../../core/options';
import { MIN_SECRET_LENGTH } from '../../payments/ids';
import { credentialFromEnv } from '../env';
import { ExitCode, type Io, UsageError } from '../output';

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
