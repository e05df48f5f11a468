import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BatchReportItem } from '../../batches/types';
import type { BatchHandle } from '../../contracts/batch-store';
import { csvLine, LineWriter } from '../csv';
import { commitTemporary, discardTemporary, openTemporary, temporaryOwner } from '../private-file';
import { payoutRecords, RESULT_COLUMNS } from './rows';

/** What the results say of one row. */
export type RowState = Pick<
  BatchReportItem,
  'referenceId' | 'reason' | 'financialTransactionId' | 'tenant'
> & {
  status: string;
};

const NOT_SENT: RowState = { status: '' };
/** Between two writings, at least this many times the last one's duration. */
const REWRITE_SPACING = 20;

/**
 * A row as the store has it while the batch runs (or after a crash): its final status
 * when recorded, PENDING once its reference id is recorded (sent, or about to be), blank
 * when nothing is recorded yet (not sent; a REJECTED or SKIPPED row shows at the end).
 */
async function storedState(
  handle: BatchHandle,
  key: string,
  withTenant: boolean,
): Promise<RowState> {
  const record = await handle.get(key);
  if (!record) return NOT_SENT;
  const outcome = record.outcome;
  const status = outcome && outcome.status !== 'SENT' ? outcome.status : 'PENDING';
  return {
    referenceId: record.referenceId,
    status,
    ...(withTenant && record.tenant !== undefined ? { tenant: record.tenant } : {}),
    ...(outcome?.reason === undefined ? {} : { reason: outcome.reason }),
    ...(outcome?.financialTransactionId === undefined
      ? {}
      : { financialTransactionId: outcome.financialTransactionId }),
  };
}

/**
 * The results file: every input column, then referenceId, status, reason and
 * financialTransactionId, one row per input row, in input order. Each writing reads the
 * input again (never holding it whole), writes a temporary file next to the results,
 * flushes it and renames it over them: a crash leaves the previous complete file.
 * `schedule()` (on progress) writes at most once every `intervalMs`, and leaves at least
 * 20 times the last writing's duration between two: a large file is rewritten less often,
 * so that rewriting takes at most about 5% of the time (with 4 times, a 50,000-row run
 * spent a fifth of it rewriting, and the garbage pushed the run's own objects into the old
 * generation: docs/assumptions.md PO3).
 */
export class ResultsFile {
  readonly #input: string;
  readonly #out: string;
  readonly #handle: BatchHandle;
  readonly #intervalMs: number;
  /** Rows found bad before the run (by index): REJECTED from the first writing on. */
  #rejected: ReadonlyMap<number, string> = new Map();
  /** `--tenant`: a `tenant` column, each row's recorded tenant (blank: not recorded). */
  #tenantColumn = false;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #last = 0;
  #lastTook = 0;

  constructor(input: string, out: string, handle: BatchHandle, intervalMs = 1000) {
    this.#input = input;
    this.#out = out;
    this.#handle = handle;
    this.#intervalMs = intervalMs;
  }

  /** The rows the check found bad, by index, with their reasons: shown REJECTED at once. */
  rejecting(reasons: ReadonlyMap<number, string>): this {
    this.#rejected = reasons;
    return this;
  }

  /**
   * With `--tenant` (a tenant's run): the results end with a `tenant` column, the tenant
   * each row's record carries, unless the input has a column of that name already.
   */
  withTenantColumn(tenant: string | undefined): this {
    this.#tenantColumn = tenant !== undefined;
    return this;
  }

  /** Writes the file from the store now. */
  fromStore(): Promise<void> {
    return this.#write((key, index) => {
      const reason = this.#rejected.get(index);
      // The tenant read only for a tenant column: with it read on every row of every writing,
      // a 100,000-row run promoted 1.6 GB to V8's old generation instead of about 0.45 GB
      // (--trace-gc-nvp) and its peak RSS rose by 100-150 MB (docs/performance.md).
      return reason === undefined
        ? storedState(this.#handle, key, this.#tenantColumn)
        : { status: 'REJECTED', reason };
    });
  }

  /**
   * Removes the temporary files that runs killed mid-writing left beside the results
   * (`<out>.<pid>.<random>.tmp` of a process that is gone): a SIGKILL cannot clean up, so
   * without this each crash that lands mid-writing leaves one more beside the results.
   */
  async removeLeftovers(): Promise<void> {
    const names = await readdir(dirname(this.#out)).catch(() => [] as string[]);
    for (const name of names) {
      const pid = temporaryOwner(this.#out, name);
      if (pid !== undefined && !alive(pid))
        await rm(join(dirname(this.#out), name), { force: true });
    }
  }

  /** Writes the file from the store soon (at most once every `intervalMs`). */
  schedule(): void {
    if (this.#timer) return;
    const gap = Math.max(this.#intervalMs, REWRITE_SPACING * this.#lastTook);
    const delay = Math.max(0, this.#last + gap - Date.now());
    this.#timer = setTimeout(() => {
      void this.fromStore()
        .catch(() => {
          // Left to the final writing, which fails alike and is reported.
        })
        .finally(() => {
          this.#timer = undefined;
        });
    }, delay);
    this.#timer.unref();
  }

  /** The final writing: each row as the report says (or from the store, when the run stopped). */
  async final(items?: readonly RowState[]): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!items) return this.fromStore();
    await this.#write((_key, index) => items[index] ?? NOT_SENT);
  }

  async #write(stateOf: (key: string, index: number) => RowState | Promise<RowState>) {
    while (this.#writing) await this.#writing.catch(() => {});
    const started = Date.now();
    this.#writing = this.#writeOnce(stateOf);
    try {
      await this.#writing;
    } finally {
      this.#writing = undefined;
      this.#last = Date.now();
      this.#lastTook = this.#last - started;
    }
  }

  async #writeOnce(stateOf: (key: string, index: number) => RowState | Promise<RowState>) {
    const temp = await openTemporary(this.#out); // exclusive, private, unguessable
    const { file } = temp;
    try {
      const lines = new LineWriter(file);
      let index = 0;
      let tenantColumn = false;
      for await (const record of payoutRecords(this.#input)) {
        if (index === 0) {
          tenantColumn = this.#tenantColumn && !record.header.includes('tenant');
          const added = tenantColumn ? [...RESULT_COLUMNS, 'tenant'] : RESULT_COLUMNS;
          await lines.add(csvLine([...record.header, ...added]));
        }
        const pending = stateOf(record.values.key ?? '', index++);
        const state = pending instanceof Promise ? await pending : pending;
        const fields = record.header.map((name) => record.values[name] ?? '');
        fields.push(
          state.referenceId ?? '',
          state.status,
          state.reason ?? '',
          state.financialTransactionId ?? '',
        );
        if (tenantColumn) fields.push(state.tenant ?? '');
        const full = lines.add(csvLine(fields));
        if (full) await full;
      }
      await lines.flush();
    } catch (error) {
      await discardTemporary(temp);
      throw error;
    }
    await commitTemporary(temp, this.#out);
  }
}

/** Whether a process of this id runs (signal 0 only checks; EPERM: it runs as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
