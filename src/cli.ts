/**
 * `momo-partner-sdk simulator [--port 4010] [--host 127.0.0.1] [--settle-ms N]`
 *
 * Serves the in-memory simulator over HTTP. It imports only the simulator core and the
 * node:http adapter (no msw, no client), so it runs without the optional peer msw.
 */
import { parseArgs } from 'node:util';
import { createEngine } from './testing/engine';
import { listen } from './testing/listen';

const USAGE = `Usage: momo-partner-sdk simulator [options]

Serves a stateful, in-memory fake of the Mobile-Money Partner API on loopback.

Options:
  --port <n>        port to listen on (default 4010; 0 picks a free port)
  --host <host>     interface to bind (default 127.0.0.1)
  --settle-ms <n>   milliseconds until a transaction is final (default 100)
  -h, --help        show this help
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a non-negative integer`);
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals[0] !== 'simulator' || positionals.length > 1) {
    fail(
      positionals.length === 0 ? 'Missing command.' : `Unknown command: ${positionals.join(' ')}`,
    );
  }
  const port = integer(values.port, 'port', 4010);
  if (port > 65_535) fail('--port must be at most 65535');
  const settleMs = integer(values['settle-ms'], 'settle-ms', 100);
  const engine = createEngine({ settleMs });
  const server = await listen(engine.handle, { port, host: values.host ?? '127.0.0.1' });
  const { subscriptionKey, apiUser, targetEnvironment } = engine.credentials;
  process.stdout.write(
    [
      `MoMo simulator listening on ${server.url}`,
      '',
      `  baseUrl            ${server.url}`,
      `  subscriptionKey    ${subscriptionKey}`,
      `  apiUser.id         ${apiUser.id}`,
      `  apiUser.key        ${apiUser.key}`,
      `  targetEnvironment  ${targetEnvironment}`,
      `  settleMs           ${settleMs}`,
      '',
      'These are fixed test credentials of the simulator, not secrets. Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'settle-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `momo-partner-sdk: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
