import type { ProductName } from '../../core/options';
import { isMomoError, isValidationError } from '../../errors';
import { reconcile } from '../../reconcile/reconcile';
import type { ReconcileProgress, ReconcileSummary } from '../../reconcile/types';
import { positiveInteger } from '../args';
import { defineCommand } from '../command';
import { CONNECTION_HELP, clientFromEnv, credentialFromEnv, PRODUCTS } from '../env';
import { CliFailure, ExitCode, UsageError } from '../output';
import { progressOn } from '../progress';
import {
  booksRefused,
  checkBooks,
  checkWritable,
  defaultReportPath,
  readBooks,
  writeReport,
} from '../reconcile/books';
import { type OpenedStore, openStore } from '../reconcile/stores';

const USAGE = `Usage: momo-partner-sdk reconcile <file.csv> [--out report.csv] [--lookup-rate n]
    [--from-store <where> [--batch <id>]... [--since <date>]] [--json]

Your books against the provider: each row is looked up by its reference id (within the
client's lookup budget) and given a verdict: MATCH, SETTLED, MISMATCH, STILL_PENDING,
NOT_FOUND, OTHER_PLATFORM, ERROR, or DUPLICATE (a reference id an earlier row has: not
looked up again). With --from-store, the payments the SDK's state holds that no row
names are added after the rows, looked up: MISSING_FROM_BOOKS (docs/reconcile.md).
Every row is checked before the first lookup; the credentials of each product the file
names are checked next.

  <file.csv>        RFC 4180, a header row, then one row per payment: referenceId,
                    operation (e.g. disbursement.transfer), optional status, amount,
                    currency; other columns are carried to the report as they are
  --out <file>      the report (default <file>.report.csv): every input column, then
                    providerStatus, verdict, reason; one row per input row, in order,
                    then one per payment the books lack (--from-store)
  --lookup-rate <n> status lookups per second, at most (the provider's cap, shared
                    with anything else calling it: leave room for a live relay)
  --from-store <where>
                    also list what the SDK sent: file:<dir> (the batches of payouts
                    --state-dir <dir>); redis://host:6379 (its journal and batches;
                    ?prefix= the key prefix, default "momo:"); postgres://user@host/db
                    (its journal, outbox and batches; ?schema= default "momo")
  --batch <id>      with --from-store: only this batch of the store (repeat for more;
                    default every batch it holds)
  --since <date>    with --from-store: only journal entries and outbox payments from
                    this date or time on (ISO 8601, e.g. 2026-11-27); batches have no time
  -h, --help        show this help
  -v, --version     print the version

Exit codes: 0 every row got a verdict (whichever), 2 bad usage or an unreadable or
malformed file (its line and column named; nothing looked up), 3 an API or connection
error that stopped the run (e.g. refused credentials, a --from-store that cannot be
reached).

${CONNECTION_HELP}`;

export const reconcileCommand = defineCommand({
  name: 'reconcile',
  summary: 'reconcile a CSV of your books against the provider, into a report CSV',
  usage: USAGE,
  connection: true,
  flags: {
    out: { type: 'string' },
    'lookup-rate': { type: 'string' },
    'from-store': { type: 'string' },
    batch: { type: 'string', multiple: true },
    since: { type: 'string' },
  },
  positionals: { min: 1, max: 1, names: '<file.csv>' },
  async run(command) {
    const { args, io } = command;
    const [file = ''] = args.positionals;
    const out = args.text('out') ?? defaultReportPath(file);
    const lookupRate = positiveInteger(args.text('lookup-rate'), '--lookup-rate');
    const where = args.text('from-store');
    const batches = args.texts('batch');
    const since = sinceOf(args.text('since'));
    if (!where && (batches.length > 0 || since !== undefined)) {
      throw new UsageError('--batch and --since choose what --from-store lists: give it too.');
    }
    const { columns, rows } = await readBooks(file);
    checkBooks(file, rows);
    await checkWritable(out);

    const products = [...new Set(rows.map((row) => row.operation.split('.')[0] as ProductName))];
    const store = where ? await openStore(where) : undefined;
    try {
      // A payment the books lack may be of another product: every one with credentials set.
      const lookedUp = store ? [...new Set([...products, ...configured(io.env)])] : products;
      const momo = clientFromEnv(io, args, lookedUp.length > 0 ? lookedUp : products, {
        ...(lookupRate === undefined ? {} : { lookupRate }),
        ...(store?.journal ? { journal: store.journal } : {}),
      });
      const { baseUrl, targetEnvironment } = command.connection();
      command.progress(
        `reconcile: ${rows.length} rows of ${file}${store ? ` and what ${store.label} holds` : ''}, looked up at ${baseUrl} (target environment ${targetEnvironment})`,
      );
      // A refused credential or an unreachable service stops the run before the first lookup.
      for (const product of products) {
        await momo[product].getAccessToken().catch((error: unknown) => {
          throw command.explain(error, product);
        });
      }
      const progress = progressOn(io, command.json);
      const fromStore = store ? { ...store.stores, ...scope(batches, since) } : {};
      const result = await reconcile(momo, rows, {
        ...fromStore,
        onProgress: (p) => progress.update(`reconcile: ${counts(p)}`),
      }).catch((error: unknown) => {
        if (isValidationError(error)) throw booksRefused(file, rows, error);
        // Lookups fail row by row: what stops the run here is the store's listing.
        if (store && !isMomoError(error)) throw storeFailed(store.label, error);
        throw error;
      });
      progress.done(`reconcile: ${counts({ ...result.summary, checked: result.summary.total })}`);
      await writeReport(out, columns, result.items, rows);
      command.print(
        { report: out, summary: result.summary },
        `${file}: ${verdicts(result.summary) || 'no rows'}\nreport: ${out}\n`,
      );
      return ExitCode.ok;
    } finally {
      await closeQuietly(store);
    }
  },
});

/** `--since`: an ISO 8601 date or time, as epoch milliseconds. */
function sinceOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError('--since must be an ISO 8601 date or time, e.g. 2026-11-27');
  }
  return ms;
}

function scope(batches: string[], since: number | undefined) {
  return {
    ...(batches.length > 0 ? { batches } : {}),
    ...(since === undefined ? {} : { since }),
  };
}

/** The products whose three credentials are all set. */
function configured(env: Readonly<Record<string, string | undefined>>): ProductName[] {
  return PRODUCTS.filter((product) =>
    (['SUBSCRIPTION_KEY', 'API_USER', 'API_KEY'] as const).every(
      (name) => credentialFromEnv(env, product, name).value,
    ),
  );
}

/** The store could not be read (unreachable, no such schema...): exit code 3. */
function storeFailed(label: string, error: unknown): CliFailure {
  const reason = error instanceof Error ? error.message : String(error);
  return new CliFailure(
    `--from-store ${label}: cannot list what it holds (${reason})`,
    ExitCode.api,
  );
}

async function closeQuietly(store: OpenedStore | undefined): Promise<void> {
  await store?.close().catch(() => undefined);
}

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
