import { join } from 'node:path';
import { Batches } from '../../batches/batches';
import { fileBatchStore } from '../../batches/file-store';
import type { BatchReport } from '../../batches/types';
import type { ProductName } from '../../core/options';
import { oneOf, positiveInteger } from '../args';
import { defineCommand } from '../command';
import { CONNECTION_HELP, clientFromEnv } from '../env';
import { CliFailure, ExitCode, UsageError } from '../output';
import { adoptedMismatchText } from '../payouts/adopted';
import { asFileError, checkFile, type FileCheck } from '../payouts/check';
import {
  dryRunFile,
  dryRunOf,
  dryRunRows,
  dryRunText,
  listedProblems,
  problemText,
  refuseResultsOverwrite,
  SETTLE_ALLOWANCE_S,
  withReasons,
} from '../payouts/dry-run';
import { PROBLEMS_LISTED } from '../payouts/problems';
import { ProgressView } from '../payouts/progress';
import {
  DEFAULT_REPEAT_WINDOW,
  findRepeat,
  guardNow,
  recordRun,
  repeatMessage,
  repeatWindowMs,
} from '../payouts/repeat';
import { ResultsFile } from '../payouts/results';
import { CSV_OPERATIONS, type CsvOperation, rereadableItems } from '../payouts/rows';
import { batchSecret, exitCodeOf, summaryText } from '../payouts/summary';
import { simulatorTagsFromEnv } from '../simulator-tags';

const OPERATIONS = [...CSV_OPERATIONS.keys()] as CsvOperation[];

const USAGE = `Usage: momo-partner-sdk payouts <file.csv> --batch <id> [options]

Pays every row of a CSV file exactly once, as batch <id> (docs/batches.md). Running
the same command again (after a crash, a timeout, a deleted state folder) continues the
batch: rows already sent are looked up, never sent twice.

Input: a header row, then one row per payment (RFC 4180, UTF-8). Columns: key (unique),
amount, currency, and msisdn or partyIdType + partyId; optional externalId (default the
key), payerMessage, payeeNote. Other columns are carried to the results.

  --batch <id>              the batch's id (required): the same id continues it
  --operation <name>        what each row is (default disbursement.transfer): transfer,
                            deposit or depositV2 of disbursement, remittance.transfer
                            (the row names the payee); collection.requestToPay,
                            requestToWithdraw or requestToWithdrawV1 (the payer)
  --out <file>              results (default <file>.results.csv): the input's columns,
                            then referenceId, status, reason, financialTransactionId;
                            rewritten as rows end (PENDING: sent, not final; blank: not
                            sent yet)
  --state-dir <dir>         where the batch's state lives (default .momo)
  --check-account-holder    skip rows whose payee is not an active account holder
                            (one more lookup per row)
  --strict                  refuse the whole file (exit code 2, nothing sent) when a
                            row cannot be paid as written, instead of REJECTING that row
  --repeat-window <time>    refuse a file whose rows (payee, amount, currency) another
                            batch of --state-dir paid within this time (default
                            ${DEFAULT_REPEAT_WINDOW}; e.g. 90m, 36h, 7d): exit code 2 naming
                            that batch. MOMO_NOW (ISO 8601) sets "now" for rehearsals
  --allow-repeat            pay such a file all the same
  --dry-run                 check every row, send nothing: every bad row, totals per
                            currency, every row in --out, else <file>.dry-run.csv
                            (REJECTED with why, NOT_SENT, or an earlier run's outcome;
                            never over a run's results), and an estimate counting every call:
                            creates / create rate + lookups (status, and account
                            holder with --check-account-holder) / lookup rate + ${SETTLE_ALLOWANCE_S} s
  --concurrency <n>         creating calls in flight at once (default 8)
  --create-rate <n>         creating calls started per second, at most
  --lookup-rate <n>         status lookups per second, at most (the provider's cap)
  --timeout-ms <n>          how long each row's outcome is awaited (default 300000);
                            rows still pending then are UNRESOLVED (exit code 5)
  -h, --help                show this help
  -v, --version             print the version

Reference ids are derived from the batch id and the key with MOMO_BATCH_SECRET (at
least 16 characters) when set, else with a key derived from the API key: deleting the
state folder loses the progress shown, never the guarantee.

A row that cannot be paid as written (a blank or repeated key, an amount like -5 or
1,000.50, a phone number like abc, a currency like EURO) is REJECTED in the results with
its line, column and why, and the others are paid; every such row is listed at the end
(the first 20, and how many more; a dry run lists them all).

Against a plain-http loopback base URL (the simulator), each row's batch id and key go
along, for the simulator's page; MOMO_SIMULATOR_TAGS=1 or 0 says so or not outright.
Nothing is inferred from the server's answers.

Exit codes: 0 every row ended (SUCCESSFUL, FAILED, REJECTED or SKIPPED); 2 bad usage,
an unreadable or malformed file, rows that disagree with what the batch sent, --strict
with a bad row, or a repeat (nothing sent; a dry run says so and exits 2 too), or rows
that, after the state was lost, disagree with what the provider holds under their
reference ids (those rows REJECTED, not sent; named on stderr); 3 an API or connection
error stopped the run or left rows unresolved; 5 rows still pending at --timeout-ms.

${CONNECTION_HELP}`;

export const payoutsCommand = defineCommand({
  name: 'payouts',
  summary: 'pay every row of a CSV file, exactly once (a batch)',
  usage: USAGE,
  connection: true,
  flags: {
    batch: { type: 'string' },
    operation: { type: 'string' },
    out: { type: 'string' },
    'state-dir': { type: 'string' },
    'check-account-holder': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    strict: { type: 'boolean' },
    'repeat-window': { type: 'string' },
    'allow-repeat': { type: 'boolean' },
    concurrency: { type: 'string' },
    'create-rate': { type: 'string' },
    'lookup-rate': { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: '<file.csv>' },
  async run(command) {
    const { args, io } = command;
    const file = args.positionals[0] ?? '';
    const batch = args.text('batch');
    if (!batch) throw new UsageError('Missing --batch <id> (the same id continues the batch).');
    const operation = oneOf(
      args.text('operation') ?? 'disbursement.transfer',
      OPERATIONS,
      'operation for a CSV',
    );
    const givenOut = args.text('out');
    const out = givenOut ?? `${file.replace(/\.csv$/i, '')}.results.csv`;
    const rates = {
      createRate: positiveInteger(args.text('create-rate'), '--create-rate'),
      lookupRate: positiveInteger(args.text('lookup-rate'), '--lookup-rate'),
    };
    const concurrency = positiveInteger(args.text('concurrency'), '--concurrency');
    const waitTimeoutMs = positiveInteger(args.text('timeout-ms'), '--timeout-ms');
    const dryRun = args.flag('dry-run');
    const dryOut = dryRunFile(out, givenOut !== undefined);
    if (dryRun && givenOut !== undefined) await refuseResultsOverwrite(dryOut);
    const windowText = args.text('repeat-window') ?? DEFAULT_REPEAT_WINDOW;
    const windowMs = repeatWindowMs(windowText);
    const now = guardNow(io.env);
    const product = operation.split('.')[0] as ProductName;
    const lookup = rates.lookupRate === undefined ? {} : { lookupRate: rates.lookupRate };
    const momo = clientFromEnv(io, args, product, { ...lookup, ...simulatorTagsFromEnv(io, args) });
    const secret = batchSecret(io.env, product);

    const stateDir = args.text('state-dir') ?? '.momo';
    const store = fileBatchStore(join(stateDir, 'batches'));
    const handle = await store.open(batch); // the handle the run opens too
    const check = await checkFile(file, operation, handle, out, secret);
    const refusals = [
      ...(args.flag('strict') ? strictRefusal(file, check) : []),
      ...(args.flag('allow-repeat')
        ? []
        : await findRepeat(stateDir, batch, check.prints, now, windowMs).then((repeat) =>
            repeat ? [repeatMessage(file, repeat, check.prints.length, windowText)] : [],
          )),
    ];
    if (!dryRun && refusals.length > 0) {
      throw new CliFailure(refusals.join('\n'), ExitCode.usage);
    }
    if (!dryRun) await recordRun(stateDir, batch, operation, check.prints, now);
    const reasons = new Map(check.problems.map((p) => [p.index, p.reason]));
    const lines = new Map(check.problems.map((p) => [p.index, p.line]));
    const results = dryRun
      ? undefined
      : new ResultsFile(file, out, handle).rejecting(reasons).withTenantColumn(momo.tenant);
    await results?.removeLeftovers();
    await results?.fromStore();
    const bad = check.problems.length > 0 ? `, ${check.problems.length} REJECTED by the check` : '';
    command.progress(
      `payouts ${batch}: ${check.rows} rows from ${file}${bad}${dryRun ? ' (dry run: nothing is sent)' : `, results in ${out}`}`,
    );
    const quiet = command.json || dryRun;
    const { isTTY, columns } = process.stderr;
    const view = new ProgressView(quiet ? undefined : io.err, isTTY ? { columns } : undefined);
    const checkAccountHolder = args.flag('check-account-holder');
    let report: BatchReport;
    try {
      report = await asFileError(file, () =>
        new Batches(momo).run(rereadableItems(file, operation), {
          id: batch,
          store,
          secret,
          operation,
          checkAccountHolder,
          dryRun,
          concurrency,
          createRate: rates.createRate,
          waitTimeoutMs,
          onProgress: (progress) => {
            view.update(progress);
            results?.schedule();
          },
        }),
      );
    } catch (error) {
      view.finish();
      await results?.final();
      throw command.explain(error, product);
    }
    view.finish();
    const items = withReasons(report.items, reasons);
    if (dryRun) {
      await new ResultsFile(file, dryOut, handle).final(dryRunRows(items));
      const dry = await asFileError(file, () =>
        dryRunOf({
          file,
          batch,
          out: dryOut,
          report,
          items,
          handle,
          lines,
          checkAccountHolder,
          rates,
        }),
      );
      if (refusals.length > 0) dry.refused = refusals.join(' ');
      command.print(dry, dryRunText(dry));
      return refusals.length > 0 ? ExitCode.usage : ExitCode.ok;
    }
    await results?.final(items);
    const problems = listedProblems(items, lines);
    const listed = problemText(problems, report.summary.rejected);
    command.print(
      { batch, out, summary: report.summary, problems },
      `${summaryText(batch, out, report)}${listed.map((line) => `${line}\n`).join('')}`,
    );
    const mismatch = adoptedMismatchText(batch, report);
    if (mismatch !== undefined) io.err(mismatch); // exit 2, as for a changed row in the store
    return mismatch === undefined ? exitCodeOf(report) : ExitCode.usage;
  },
});

/** `--strict` with bad rows: the file refused, every bad row counted, the first listed. */
function strictRefusal(file: string, check: FileCheck): string[] {
  const n = check.problems.length;
  if (n === 0) return [];
  const listed = problemText(check.problems.slice(0, PROBLEMS_LISTED), n).join('\n');
  return [`${file}: ${n} rows cannot be paid as written (--strict: nothing was sent):\n${listed}`];
}
