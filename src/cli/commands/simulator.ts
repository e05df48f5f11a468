import { withControlRoutes } from '../../testing/control';
import { createEngine } from '../../testing/engine';
import { listen } from '../../testing/listen';
import { withPayerPhone } from '../../testing/page/routes';
import { parseCommand } from '../args';
import type { Command } from '../command';
import { ExitCode, UsageError } from '../output';

const USAGE = `Usage: momo-partner-sdk simulator [options]

Serves a stateful, in-memory fake of the Mobile-Money Partner API on loopback, with
control routes under /_simulator/ (settle, consent, faults, state: docs/simulator.md)
and the payer's phone at /_simulator/: a web page that shows transactions, callbacks,
balances and faults live, with Approve and Decline for what is pending.

Options:
  --port <n>        port to listen on (default 4010; 0 picks a free port)
  --host <host>     interface to bind (default 127.0.0.1)
  --settle-ms <n>   milliseconds until a transaction is final (default 100)
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
      { port: { type: 'string' }, host: { type: 'string' }, 'settle-ms': { type: 'string' } },
      { min: 0, max: 0, names: '' },
    );
    const port = integer(args.text('port'), 'port', 4010);
    if (port > 65_535) throw new UsageError('--port must be at most 65535');
    const settleMs = integer(args.text('settle-ms'), 'settle-ms', 100);
    const engine = createEngine({ settleMs });
    const server = await listen(withPayerPhone(engine, withControlRoutes(engine)), {
      port,
      host: args.text('host') ?? '127.0.0.1',
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
        `  settleMs           ${settleMs}`,
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
