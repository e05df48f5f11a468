import type { WaitOptions } from '../../contracts/wait';
import type { ProductName } from '../../core/options';
import { isWaitTimeoutError } from '../../errors';
import type { Lookup, TableOperation } from '../../products/endpoints';
import { apiOf } from '../../products/product-base';
import { operationTables } from '../../products/tables';
import type { OperationStatusLike } from '../../schemas/tolerant';
import { oneOf, positiveInteger } from '../args';
import { defineCommand } from '../command';
import { CONNECTION_HELP, PRODUCTS } from '../env';
import { ExitCode, UsageError } from '../output';

/** Any lookup's result: an invoice's or a payment's may be CREATED before PENDING. */
type Result = OperationStatusLike;

/**
 * Each product's status lookups, by the word used on the command line (the lookup path's
 * last word: `transfer`, `requesttopay`, `invoice`...): every lookup of the operation
 * tables that confirms a creating call (a row's `confirmedBy`), sent and awaited as the
 * product's own `getX` and `waitForX` send and await it.
 */
const KINDS = Object.fromEntries(
  PRODUCTS.map((product) => {
    const kinds: Record<string, Lookup<Result>> = {};
    for (const op of Object.values(operationTables[product]) as TableOperation[]) {
      const lookup = op.confirmedBy;
      if (lookup) kinds[(lookup.path.split('/').at(-2) ?? '').toLowerCase()] = lookup;
    }
    return [product, kinds];
  }),
) as Record<ProductName, Record<string, Lookup<Result>>>;

const USAGE = `Usage: momo-partner-sdk status <product> <kind> <referenceId> [options]

Looks up an operation by its reference id; with --wait, polls until it is final and
reports each status seen on stderr. Exit code 4 when it is FAILED, 5 when --wait runs
out of time.

  <product> <kind>    disbursement: ${Object.keys(KINDS.disbursement).join(', ')}
                      collection: ${Object.keys(KINDS.collection).join(', ')}
                      remittance: ${Object.keys(KINDS.remittance).join(', ')}
  <referenceId>       the X-Reference-Id the operation was created with (UUID v4)
  --wait              wait until SUCCESSFUL or FAILED
  --timeout-ms <n>    how long --wait waits (default 300000)
  -h, --help          show this help
  -v, --version       print the version

${CONNECTION_HELP}`;

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'look up an operation (--wait: until SUCCESSFUL or FAILED)',
  usage: USAGE,
  connection: true,
  flags: { wait: { type: 'boolean' }, 'timeout-ms': { type: 'string' } },
  positionals: { min: 3, max: 3, names: '<product> <kind> <referenceId>' },
  async run(command) {
    const { args } = command;
    const [, kindWord = '', referenceId = ''] = args.positionals;
    const product = command.product();
    const kinds = KINDS[product];
    const lookup = kinds[
      oneOf(kindWord, Object.keys(kinds), `kind for ${product}`)
    ] as Lookup<Result>;
    const timeoutMs = positiveInteger(args.text('timeout-ms'), '--timeout-ms');
    if (timeoutMs !== undefined && !args.flag('wait')) {
      throw new UsageError('--timeout-ms goes with --wait');
    }
    const api = apiOf(command.client(product)[product]);
    const what = `${product} ${kindWord} ${referenceId}`;
    const show = (result: Result) => command.print(result, describe(what, result));
    const wait: WaitOptions<Result> = {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      onStatus: (seen) => command.progress(`  ${new Date().toISOString()}  ${seen.status}`),
    };
    if (args.flag('wait')) {
      const { baseUrl, targetEnvironment } = command.connection();
      const deadline = `${timeoutMs ?? 300_000} ms`;
      command.progress(
        `${what}: waiting at ${baseUrl} (target environment ${targetEnvironment}), up to ${deadline}...`,
      );
    }
    let result: Result;
    try {
      result = args.flag('wait')
        ? await api.waitFor(lookup, referenceId, wait)
        : await api.lookup(lookup, referenceId);
    } catch (error) {
      // The last status seen is still worth printing before exit code 5.
      const last = isWaitTimeoutError(error) ? error.lastResult : undefined;
      if (last !== null && typeof last === 'object') show(last as Result);
      throw command.explain(error, product);
    }
    show(result);
    return result.status === 'FAILED' ? ExitCode.failed : ExitCode.ok;
  },
});

/** Human output: the status line, then the fields a person checks. */
function describe(what: string, result: Result): string {
  const reason = result.reason ? ` (${result.reason.code}${message(result.reason)})` : '';
  const lines = [`${what}: ${result.status}${reason}`];
  const fields = ['amount', 'currency', 'financialTransactionId', 'externalId'] as const;
  for (const field of fields) {
    const value = (result as unknown as Partial<Record<string, unknown>>)[field];
    if (typeof value === 'string' || typeof value === 'number') {
      lines.push(`  ${field.padEnd(24)}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function message(reason: { message?: unknown }): string {
  return typeof reason.message === 'string' && reason.message ? `: ${reason.message}` : '';
}
