import type { BatchReport } from '../../batches/types';
import { isMismatch } from '../../payments/verify';

/**
 * Rows whose reference id the provider holds for another transaction (the row edited
 * after it was paid, or a new file under a reused --batch, with the state lost): REJECTED,
 * not sent. What `payouts` says about them on stderr before it exits 2; undefined when
 * there are none.
 */
export function adoptedMismatchText(batch: string, report: BatchReport): string | undefined {
  const rows = report.items.filter((i) => i.status === 'REJECTED' && isMismatch(i.reason));
  if (rows.length === 0) return undefined;
  const lines = [
    `payouts ${batch}: ${rows.length} ${rows.length === 1 ? 'row disagrees' : 'rows disagree'} with what the provider holds under ${rows.length === 1 ? 'its reference id' : 'their reference ids'} (batch ${batch} paid another row under the same key before its state was lost): not sent.`,
    '  A key names one payment for good: restore the row as it was, or pay it under a new key or a new --batch.',
    ...rows.slice(0, 20).map((i) => `  key ${JSON.stringify(i.key)}: ${i.reason}`),
  ];
  if (rows.length > 20) lines.push(`  ... and ${rows.length - 20} more (see the results file)`);
  return `${lines.join('\n')}\n`;
}
