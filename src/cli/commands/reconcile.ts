import type { ProductName } from '../../core/options';
import { isValidationError } from '../../errors';
import type { ReconcileProgress, ReconcileSummary } from '../../reconcile/types';
import { defineCommand } from '../command';
import { CONNECTION_HELP } from '../env';
import { ExitCode } from '../output';
import { progressOn } from '../progress';
import {
  booksRefused,
  checkBooks,
  checkWritable,
  defaultReportPath,
  readBooks,
  writeReport,
} from '../reconcile/books';

const USAGE = `Usage: momo-partner-sdk reconcile <file.csv> [--out report.csv] [--json]

Your books against the provider: each row is looked up by its reference id (within the
client's lookup budget) and given a verdict: MATCH, SETTLED, MISMATCH, STILL_PENDING,
NOT_FOUND, OTHER_PLATFORM or ERROR (docs/reconcile.md). Every row is checked before the
first lookup; the credentials of each product the file names are checked next.

  <file.csv>        RFC 4180, a header row, then one row per payment: referenceId,
                    operation (e.g. disbursement.transfer), optional status, amount,
                    currency; other columns are carried to the report as they are
  --out <file>      the report (default <file>.report.csv): every input column, then
                    providerStatus, verdict, reason; one row per input row, in order
  -h, --help        show this help
  -v, --version     print the version

Exit codes: 0 every row got a verdict (whichever), 2 bad usage or an unreadable or
malformed file (its line and column named; nothing looked up), 3 an API or connection
error that stopped the run (e.g. refused credentials).

${CONNECTION_HELP}`;

export const reconcileCommand = defineCommand({
  name: 'reconcile',
  summary: 'reconcile a CSV of your books against the provider, into a report CSV',
  usage: USAGE,
  connection: true,
  flags: { out: { type: 'string' } },
  positionals: { min: 1, max: 1, names: '<file.csv>' },
  async run(command) {
    const [file = ''] = command.args.positionals;
    const out = command.args.text('out') ?? defaultReportPath(file);
    const { columns, rows } = await readBooks(file);
    checkBooks(file, rows);
    await checkWritable(out);

    const products = [...new Set(rows.map((row) => row.operation.split('.')[0] as ProductName))];
    const momo = command.client(products);
    const { baseUrl, targetEnvironment } = command.connection();
    command.progress(
      `reconcile: ${rows.length} rows of ${file}, looked up at ${baseUrl} (target environment ${targetEnvironment})`,
    );
    // A refused credential or an unreachable service stops the run before the first lookup.
    for (const product of products) {
      await momo[product].getAccessToken().catch((error: unknown) => {
        throw command.explain(error, product);
      });
    }
    const progress = progressOn(command.io, command.json);
    const result = await momo
      .reconcile(rows, { onProgress: (p) => progress.update(`reconcile: ${counts(p)}`) })
      .catch((error: unknown) => {
        throw isValidationError(error) ? booksRefused(file, rows, error) : error;
      });
    progress.done(`reconcile: ${counts({ ...result.summary, checked: result.summary.total })}`);
    await writeReport(out, columns, result.items);
    command.print(
      { report: out, summary: result.summary },
      `${file}: ${verdicts(result.summary) || 'no rows'}\nreport: ${out}\n`,
    );
    return ExitCode.ok;
  },
});

/** `3/4 checked: 2 MATCH, 1 SETTLED`. */
function counts(progress: ReconcileProgress): string {
  const seen = verdicts(progress);
  return `${progress.checked}/${progress.total} checked${seen ? `: ${seen}` : ''}`;
}

/** The verdicts given so far, with their counts (none omitted). */
function verdicts(summary: ReconcileSummary): string {
  return Object.entries(summary)
    .filter(([name, n]) => name !== 'total' && name !== 'checked' && n > 0)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
}
