import { isLoopback } from '../../core/url';
import { createEngine } from '../../testing/engine';
import type { ResolvedOptions } from '../../testing/options';
import { serveEngine } from '../../testing/serve';
import { parseCommand } from '../args';
import type { Command } from '../command';
import { ExitCode, UsageError } from '../output';
import {
  limitsLine,
  SIMULATOR_MODEL_FLAGS,
  SIMULATOR_MODEL_USAGE,
  simulatorModelOptions,
} from './simulator-options';

const USAGE = `Usage: momo-partner-sdk simulator [options]

Serves a stateful, in-memory fake of the Mobile-Money Partner API on loopback, with
control routes under /_simulator/ (settle, consent, faults, state: docs/simulator.md)
and the payer's phone at /_simulator/: a web page that shows transactions, callbacks,
balances and faults live, with Approve and Decline for what is pending.

Options:
  --port <n>        port to listen on (default 4010; 0 picks a free port)
  --host <host>     interface to bind (default 127.0.0.1)
  --settle-ms <n>   milliseconds until a transaction is final (default 100)
${SIMULATOR_MODEL_USAGE}  --allowed-hosts <names>
                    Host header names accepted besides loopback and --host, comma
                    separated (e.g. momo-sim when bound to 0.0.0.0 in docker-compose)
  --callback-hosts <names>
                    hosts callbacks may go to besides loopback and the API user's
                    providerCallbackHost, comma separated ('*': any)
  --provider-callback-host <name>
                    the simulator's API user's providerCallbackHost
  --enforce-callback-host
                    refuse an X-Callback-Url whose host is not the calling API user's
                    providerCallbackHost (400 INVALID_CALLBACK_URL_HOST), as the sandbox does
  -h, --help        show this help
  -v, --version     print the version

A running simulator is steered with \`momo-partner-sdk simulator approve <referenceId>\`
and \`simulator decline <referenceId>\` (or the buttons of its page).
`;

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer`);
  return Number(value);
}

/**
 * Imports only the simulator core, its control routes and the node:http adapter (no msw,
 * no client), so it runs without the optional peer msw. Resolves when SIGINT or SIGTERM
 * has closed the server.
 */
export const simulatorCommand: Command = {
  name: 'simulator',
  summary: 'serve the in-memory simulator over HTTP on loopback',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommand(
      argv,
      {
        port: { type: 'string' },
        host: { type: 'string' },
        'settle-ms': { type: 'string' },
        'allowed-hosts': { type: 'string' },
        'callback-hosts': { type: 'string' },
        'provider-callback-host': { type: 'string' },
        'enforce-callback-host': { type: 'boolean' },
        ...SIMULATOR_MODEL_FLAGS,
      },
      { min: 0, max: 0, names: '' },
    );
    const port = integer(args.text('port'), 'port', 4010);
    if (port > 65_535) throw new UsageError('--port must be at most 65535');
    const settleMs = integer(args.text('settle-ms'), 'settle-ms', 100);
    const providerCallbackHost = args.text('provider-callback-host');
    const model = simulatorModelOptions(args);
    const { engine, server } = await usage(async () => {
      const engine = createEngine({
        ...model,
        settleMs,
        callbackHosts: names(args.text('callback-hosts')),
        enforceCallbackHost: args.flag('enforce-callback-host'),
        ...(providerCallbackHost !== undefined ? { providerCallbackHost } : {}),
      });
      const server = await serveEngine(engine, {
        port,
        host: args.text('host') ?? '127.0.0.1',
        allowedHosts: names(args.text('allowed-hosts')),
      });
      return { engine, server };
    });
    const { subscriptionKey, apiUser, targetEnvironment } = engine.credentials;
    io.out(
      [
        `MoMo simulator listening on ${server.url}`,
        '',
        `  payer's phone      ${server.url}/_simulator/  (open it in a browser)`,
        `  baseUrl            ${server.url}`,
        `  subscriptionKey    ${subscriptionKey}`,
        `  apiUser.id         ${apiUser.id}`,
        `  apiUser.key        ${apiUser.key}`,
        `  targetEnvironment  ${targetEnvironment}`,
        ...insecureHostHint(args.text('host'), port, args.text('allowed-hosts')),
        `  settleMs           ${settleMs}`,
        `  currency           ${engine.internals.options.currency} (balances ${engine.internals.options.initialBalance})`,
        `  limits             ${limitsLine(model)}`,
        `  callback hosts     ${callbackHostsLine(engine.internals.options)}`,
        `  control routes     ${server.url}/_simulator/state (and settle, consent, faults)`,
        '',
        'These are fixed test credentials of the simulator, not secrets. Ctrl-C stops it.',
        '',
      ].join('\n'),
    );
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    try {
      await server.close();
      return ExitCode.ok;
    } catch {
      io.err(`momo-partner-sdk: the server did not close cleanly after ${signal}\n`);
      return ExitCode.internal;
    }
  },
};

/** A comma-separated list of host names (empty entries dropped). */
function names(value: string | undefined): string[] {
  return (value ?? '').split(',').flatMap((name) => (name.trim() === '' ? [] : [name.trim()]));
}

/** A bad host name in an option is a usage error (exit code 2), not a crash. */
async function usage<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

function callbackHostsLine(options: ResolvedOptions): string {
  const own = options.providerCallbackHost ? ` (${options.providerCallbackHost})` : '';
  const more = options.callbackHosts.map((host) => `, ${host}`).join('');
  const rule = options.enforceCallbackHost ? '; X-Callback-Url host enforced' : '';
  return `loopback, the calling API user's providerCallbackHost${own}${more}${rule}`;
}

/**
 * Bound beyond loopback, the simulator is reached by a host name the client holds to
 * https unless named in allowInsecureHosts, and that the server accepts only when named
 * in --allowed-hosts: print the options to use.
 */
function insecureHostHint(host: string | undefined, port: number, allowed?: string): string[] {
  if (host === undefined || isLoopback(host)) return [];
  return [
    `  allowInsecureHosts ['<the host name clients use>'], e.g. baseUrl http://momo-sim:${port} with allowInsecureHosts: ['momo-sim']`,
    ...(allowed === undefined
      ? [
          '  allowed hosts      loopback and the bound host only: add the name clients use with --allowed-hosts momo-sim',
        ]
      : []),
  ];
}
