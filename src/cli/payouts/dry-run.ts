import type { BatchReport, BatchReportItem } from '../../batches/types';
import type { BatchHandle } from '../../contracts/batch-store';
import { addDecimal } from '../../payments/decimal';
import { readCsvRecords } from '../csv';
import { CliFailure, ExitCode } from '../output';
import { PROBLEMS_LISTED } from './problems';
import { formatDuration } from './progress';
import type { RowState } from './results';
import { payoutRecords } from './rows';

/** Seconds allowed for the provider to settle the last rows, in the dry run's estimate. */
export const SETTLE_ALLOWANCE_S = 30;

/** A REJECTED row as the summaries list it. */
export interface ListedProblem {
  /** The row's line, when the check found it (a row the library refused later: none). */
  line?: number;
  key: string;
  /** `line N: column "c" ("value"): why` (a row the library refused later: its key and why). */
  reason: string;
}

/**
 * The report's items with the check's reasons (the line, the column, why) for the rows
 * the check found bad: what the results file and the summaries say.
 */
export function withReasons(
  items: readonly BatchReportItem[],
  reasons: ReadonlyMap<number, string>,
): BatchReportItem[] {
  return items.map((item, index) => {
    const reason = item.status === 'REJECTED' ? reasons.get(index) : undefined;
    return reason === undefined ? item : { ...item, reason };
  });
}

/**
 * The REJECTED rows, in input order; `lines` by row index: the first `PROBLEMS_LISTED`
 * (a run's summary: the results file has the others), or all of them (`Infinity`: a dry
 * run, where the operator fixes every one before paying).
 */
export function listedProblems(
  items: readonly BatchReportItem[],
  lines: ReadonlyMap<number, number>,
  most = PROBLEMS_LISTED,
): ListedProblem[] {
  const listed: ListedProblem[] = [];
  for (const [index, item] of items.entries()) {
    if (listed.length === most) break;
    if (item.status !== 'REJECTED') continue;
    const line = lines.get(index);
    const { key, reason = '' } = item;
    listed.push(line === undefined ? { key, reason } : { line, key, reason });
  }
  return listed;
}

/** The listed REJECTED rows, one line each, and how many more there are. */
export function problemText(listed: readonly ListedProblem[], rejected: number): string[] {
  const lines = listed.map((p) => `  REJECTED ${p.reason} (key ${JSON.stringify(p.key)})`);
  if (rejected > listed.length) {
    lines.push(
      `  ... and ${rejected - listed.length} more REJECTED rows (all in the results file)`,
    );
  }
  return lines;
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
  /** The calls the run would make under the caps given, and how long they take. */
  estimate: {
    seconds: number;
    formula: string;
    creates: number;
    lookups: { status: number; accountHolder: number };
  };
  /** Every REJECTED row, each with its line, column and why. */
  problems: ListedProblem[];
  /** Every row and what the run would do with it (never a run's results). */
  out: string;
  /** Why the run would be refused (exit code 2): `--strict` with bad rows, or a repeat. */
  refused?: string;
}

interface DryRunInput {
  file: string;
  batch: string;
  out: string;
  report: BatchReport;
  items: readonly BatchReportItem[];
  handle: BatchHandle;
  /** The lines of the rows the check found bad, by row index. */
  lines: ReadonlyMap<number, number>;
  checkAccountHolder: boolean;
  rates: { createRate?: number | undefined; lookupRate?: number | undefined };
}

/**
 * The dry run's report: totals per currency of the rows to send, and how long the caps
 * make the run take, counting every call it will make: a creating call per row not sent
 * yet (or recorded but not known to be sent), a status lookup per row to send, and with
 * `--check-account-holder` an account-holder lookup per row not sent yet (SKIPPED ones
 * too: the run checks them again). Creates / create rate + lookups / lookup rate + a
 * settle allowance; a rate not given adds nothing.
 */
export async function dryRunOf(input: DryRunInput): Promise<DryRun> {
  const { report, items, handle } = input;
  const totals: Record<string, string> = {};
  let creates = 0;
  let accountHolder = 0;
  let index = 0;
  for await (const record of payoutRecords(input.file)) {
    const item = items[index++];
    if (item?.status !== 'UNRESOLVED' && item?.status !== 'SKIPPED') continue;
    const stored = await handle.get(item.key);
    if (!stored && input.checkAccountHolder) accountHolder += 1;
    if (item.status === 'SKIPPED') continue;
    if (stored?.outcome?.status !== 'SENT') creates += 1;
    const { currency = '', amount = '0' } = record.values;
    totals[currency] = addDecimal(totals[currency] ?? '0', amount);
  }
  const s = report.summary;
  const n = s.unresolved;
  const lookups = n + accountHolder;
  const { createRate, lookupRate } = input.rates;
  const lookupText =
    accountHolder > 0
      ? `${lookups} lookups (${n} status, ${accountHolder} account holder)`
      : `${lookups} lookups`;
  const terms = [
    ...(createRate ? [[creates / createRate, `${creates} creates / ${createRate} per s`]] : []),
    ...(lookupRate ? [[lookups / lookupRate, `${lookupText} / ${lookupRate} per s`]] : []),
    [n > 0 ? SETTLE_ALLOWANCE_S : 0, `${n > 0 ? SETTLE_ALLOWANCE_S : 0} s to settle`],
  ] as [number, string][];
  const seconds = Math.ceil(terms.reduce((sum, [t]) => sum + t, 0));
  return {
    batch: input.batch,
    dryRun: true,
    rows: s.total,
    toSend: n,
    ended: s.successful + s.failed,
    rejected: s.rejected,
    skipped: s.skipped,
    totals,
    estimate: {
      seconds,
      formula: terms.map(([, text]) => text).join(' + '),
      creates,
      lookups: { status: n, accountHolder },
    },
    problems: listedProblems(items, input.lines, Number.POSITIVE_INFINITY),
    out: input.out,
  };
}

export function dryRunText(d: DryRun): string {
  const lines = [
    `payouts ${d.batch} (dry run, nothing sent): ${d.rows} rows: ${d.toSend} to send, ${d.ended} ended in an earlier run, ${d.rejected} REJECTED, ${d.skipped} SKIPPED`,
    ...Object.entries(d.totals).map(([currency, sum]) => `  ${currency}: ${sum} to send`),
    ...problemText(d.problems, d.rejected),
    `estimate: about ${formatDuration(d.estimate.seconds)} (${d.estimate.formula})`,
    `every row: ${d.out}`,
    ...(d.refused ? [`REFUSED: ${d.refused}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Where a dry run writes every row: `--out` when given, else beside the default results
 * (`payroll.dry-run.csv`), never over them.
 */
export function dryRunFile(out: string, given: boolean): string {
  return given ? out : `${out.replace(/(\.results)?\.csv$/i, '')}.dry-run.csv`;
}

/**
 * The dry run's rows as its file shows them: REJECTED with the reason, SKIPPED, an earlier
 * run's outcome, and `NOT_SENT` (no reference id: nothing was sent) for the rows the run
 * would send. Without a reference id, the real run never takes such a row as a record of
 * what was sent (check.ts), and it checks the file again, so a row fixed since is paid.
 */
export function dryRunRows(items: readonly BatchReportItem[]): RowState[] {
  return items.map((item) =>
    item.status === 'UNRESOLVED' && item.reason === DRY_RUN_REASON
      ? { status: 'NOT_SENT', reason: 'dry run: nothing was sent' }
      : item,
  );
}

/** What the batch runner says of an item a dry run would send (src/batches/item.ts). */
const DRY_RUN_REASON = 'not sent (dry run)';

/**
 * Refuses a dry run's `--out` that records a send (a row with a reference id): a run's
 * results are the operator's record of what was paid, and a dry run never writes over
 * them (PO6).
 */
export async function refuseResultsOverwrite(out: string): Promise<void> {
  try {
    for await (const record of readCsvRecords(out)) {
      if (record.values.referenceId) {
        throw new CliFailure(
          `${out} holds the results of a run (line ${record.line} was sent): a dry run never writes over them; give it another --out`,
          ExitCode.usage,
        );
      }
    }
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    // No such file, or not a CSV of results: nothing recorded there to keep.
  }
}
