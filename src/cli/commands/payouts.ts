import { join } from 'node:path';
import { fileBatchStore } from '../../batches/file-store';
import type { BatchReport } from '../../batches/types';
import type { ProductName } from '../../core/options';
import { oneOf, positiveInteger } from '../args';
import { defineCommand } from '../command';
import { CONNECTION_HELP, clientFromEnv } from '../env';
import { ExitCode, UsageError } from '../output';
import { adoptedMismatchText } from '../payouts/adopted';
import { asFileError, checkFile } from '../payouts/check';
import { ProgressView } from '../payouts/progress';
import { ResultsFile } from '../payouts/results';
import { CSV_OPERATIONS, type CsvOperation, rereadableItems } from '../payouts/rows';
import {
  batchSecret,
  dryRunOf,
  dryRunText,
  exitCodeOf,
  SETTLE_ALLOWANCE_S,
  summaryText,
} from '../payouts/summary';
import { simulatorTagsFromEnv } from '../simulator-tags';

const OPERATIONS = Object.keys(CSV_OPERATIONS) as CsvOperation[];

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
  --dry-run                 check every row, send nothing: totals per currency and an
                            estimate (rows / create rate + rows / lookup rate + ${SETTLE_ALLOWANCE_S} s)
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

Against a plain-http loopback base URL (the simulator), each row's batch id and key go
along, for the simulator's page; MOMO_SIMULATOR_TAGS=1 or 0 says so or not outright.
Nothing is inferred from the server's answers.

Exit codes: 0 every row ended (SUCCESSFUL, FAILED, REJECTED or SKIPPED); 2 bad usage,
an unreadable or malformed file, or rows that disagree with what the batch sent
(nothing sent) or, after the state was lost, with what the provider holds under their
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
    const out = args.text('out') ?? `${file.replace(/\.csv$/i, '')}.results.csv`;
    const rates = {
      createRate: positiveInteger(args.text('create-rate'), '--create-rate'),
      lookupRate: positiveInteger(args.text('lookup-rate'), '--lookup-rate'),
    };
    const concurrency = positiveInteger(args.text('concurrency'), '--concurrency');
    const waitTimeoutMs = positiveInteger(args.text('timeout-ms'), '--timeout-ms');
    const dryRun = args.flag('dry-run');
    const product = operation.split('.')[0] as ProductName;
    const lookup = rates.lookupRate === undefined ? {} : { lookupRate: rates.lookupRate };
    const momo = clientFromEnv(io, args, product, { ...lookup, ...simulatorTagsFromEnv(io, args) });
    const secret = batchSecret(io.env, product);

    const store = fileBatchStore(join(args.text('state-dir') ?? '.momo', 'batches'));
    const handle = await store.open(batch); // the handle the run opens too
    const { rows } = await checkFile(file, operation, handle, out);
    const results = dryRun ? undefined : new ResultsFile(file, out, handle);
    await results?.removeLeftovers();
    await results?.fromStore();
    command.progress(
      `payouts ${batch}: ${rows} rows from ${file}${dryRun ? ' (dry run: nothing is sent)' : `, results in ${out}`}`,
    );
    const quiet = command.json || dryRun;
    const { isTTY, columns } = process.stderr;
    const view = new ProgressView(quiet ? undefined : io.err, isTTY ? { columns } : undefined);
    let report: BatchReport;
    try {
      report = await asFileError(file, () =>
        momo.batches.run(rereadableItems(file, operation), {
          id: batch,
          store,
          secret,
          operation,
          checkAccountHolder: args.flag('check-account-holder'),
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
    if (dryRun) {
      const dry = await asFileError(file, () => dryRunOf(file, batch, report, rates));
      command.print(dry, dryRunText(dry));
      return 0;
    }
    await results?.final(report.items);
    command.print({ batch, out, summary: report.summary }, summaryText(batch, out, report));
    const mismatch = adoptedMismatchText(batch, report);
    if (mismatch !== undefined) io.err(mismatch); // exit 2, as for a changed row in the store
    return mismatch === undefined ? exitCodeOf(report) : ExitCode.usage;
  },
});
