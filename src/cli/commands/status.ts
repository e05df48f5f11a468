import type { MomoClient } from '../../client';
import type { ProductName } from '../../core/options';
import { isWaitTimeoutError } from '../../errors';
import type { WaitOptions } from '../../polling/poller';
import type { TableOperation } from '../../products/endpoints';
import { operationTables } from '../../products/tables';
import type { StatusLike } from '../../schemas/common';
import { oneOf, parseCommand, positiveInteger } from '../args';
import type { Command } from '../command';
import {
  CONNECTION_FLAGS,
  CONNECTION_HELP,
  clientFromEnv,
  connectionFromEnv,
  productArg,
  refusedCredential,
} from '../env';
import { environmentFix, isEnvironmentRefusal } from '../environment';
import { CliFailure, ExitCode, printJson, UsageError } from '../output';

type Result = StatusLike;
interface Kind {
  get(momo: MomoClient, id: string): Promise<Result>;
  wait(momo: MomoClient, id: string, options: WaitOptions<Result>): Promise<Result>;
}
type Verbs = Record<string, (id: string, options?: unknown) => Promise<Result>>;

/**
 * Each product's operations with a status lookup, by the word used on the command line
 * (the lookup path's last word: `transfer`, `requesttopay`, `invoice`...), derived from
 * the operation tables: every lookup that confirms a creating call, read with the
 * product's `getX` and awaited with its `waitForX`.
 */
const KINDS: Record<string, Record<string, Kind>> = {};
for (const product of ['disbursement', 'collection', 'remittance'] as const) {
  const kinds: Record<string, Kind> = {};
  for (const op of Object.values(operationTables[product]) as TableOperation[]) {
    const lookup = op.confirmedBy;
    if (!lookup) continue;
    const word = (lookup.path.split('/').at(-2) ?? '').toLowerCase();
    const getter = lookup.name.slice(product.length + 1); // `getTransfer`
    const waiter = `waitFor${getter.slice('get'.length)}`;
    const verbs = (m: MomoClient) => m[product] as unknown as Verbs;
    kinds[word] = {
      get: (m, id) => (verbs(m)[getter] as Verbs[string]).call(m[product], id),
      wait: (m, id, o) => (verbs(m)[waiter] as Verbs[string]).call(m[product], id, o),
    };
  }
  KINDS[product] = kinds;
}

const USAGE = `Usage: momo-partner-sdk status <product> <kind> <referenceId> [options]

Looks up an operation by its reference id; with --wait, polls until it is final and
reports each status seen on stderr. Exit code 4 when it is FAILED, 5 when --wait runs
out of time.

  <product> <kind>    disbursement: ${Object.keys(KINDS.disbursement ?? {}).join(', ')}
                      collection: ${Object.keys(KINDS.collection ?? {}).join(', ')}
                      remittance: ${Object.keys(KINDS.remittance ?? {}).join(', ')}
  <referenceId>       the X-Reference-Id the operation was created with (UUID v4)
  --wait              wait until SUCCESSFUL or FAILED
  --timeout-ms <n>    how long --wait waits (default 300000)
  -h, --help          show this help
  -v, --version       print the version

${CONNECTION_HELP}`;

export const statusCommand: Command = {
  name: 'status',
  summary: 'look up an operation (--wait: until SUCCESSFUL or FAILED)',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommand(
      argv,
      { ...CONNECTION_FLAGS, wait: { type: 'boolean' }, 'timeout-ms': { type: 'string' } },
      { min: 3, max: 3, names: '<product> <kind> <referenceId>' },
    );
    const [productWord = '', kindWord = '', referenceId = ''] = args.positionals;
    const product = productArg(productWord);
    const kinds = KINDS[product] ?? {};
    const kind = kinds[oneOf(kindWord, Object.keys(kinds), `kind for ${product}`)] as Kind;
    const timeoutMs = positiveInteger(args.text('timeout-ms'), '--timeout-ms');
    if (timeoutMs !== undefined && !args.flag('wait')) {
      throw new UsageError('--timeout-ms goes with --wait');
    }
    const momo = clientFromEnv(io, args, product);
    const what = `${product} ${kindWord} ${referenceId}`;
    const show = (result: Result) =>
      args.flag('json') ? printJson(io, result) : io.out(describe(what, result));
    const progress = (text: string) => (args.flag('json') ? undefined : io.err(`${text}\n`));
    const wait: WaitOptions<Result> = {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      onStatus: (seen) => progress(`  ${new Date().toISOString()}  ${seen.status}`),
    };
    if (args.flag('wait')) {
      const { baseUrl, targetEnvironment } = connectionFromEnv(io, args);
      const deadline = `${timeoutMs ?? 300_000} ms`;
      progress(
        `${what}: waiting at ${baseUrl} (target environment ${targetEnvironment}), up to ${deadline}...`,
      );
    }
    let result: Result;
    try {
      result = args.flag('wait')
        ? await kind.wait(momo, referenceId, wait)
        : await kind.get(momo, referenceId);
    } catch (error) {
      // The last status seen is still worth printing before exit code 5.
      const last = isWaitTimeoutError(error) ? error.lastResult : undefined;
      if (last !== null && typeof last === 'object') show(last as Result);
      throw explained(error, io.env, product, connectionFromEnv(io, args).targetEnvironment);
    }
    show(result);
    return result.status === 'FAILED' ? ExitCode.failed : ExitCode.ok;
  },
};

/** A refused credential or target environment, said with the MOMO_* variable to change. */
function explained(
  error: unknown,
  env: Readonly<Record<string, string | undefined>>,
  product: ProductName,
  targetEnvironment: string,
): unknown {
  const refused = refusedCredential(error, env, product);
  if (refused) return new CliFailure(refused, ExitCode.api);
  if (isEnvironmentRefusal(error)) {
    return new CliFailure(`${product}: ${environmentFix(targetEnvironment)}`, ExitCode.api);
  }
  return error;
}

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
