import { withoutTrailingSlashes } from '../../core/url';
import { flagOrEnv } from '../args';
import { type Command, defineCommand } from '../command';
import { CliFailure, ExitCode } from '../output';

/** Where `npx momo-partner-sdk simulator` listens by default. */
const DEFAULT_SIMULATOR_URL = 'http://127.0.0.1:4010';

function usage(verb: 'approve' | 'decline'): string {
  const outcome =
    verb === 'approve'
      ? 'It ends SUCCESSFUL (a consent request: approved).'
      : 'It ends FAILED with reason APPROVAL_REJECTED (a consent request: denied).';
  return `Usage: momo-partner-sdk simulator ${verb} <referenceId> [options]

${verb === 'approve' ? 'Approves' : 'Declines'} a pending operation of a running simulator, as its payer would:
a request to pay or to withdraw, a transfer, any operation still PENDING, or a consent
request (by its auth_req_id). ${outcome} Its callback is sent.

  <referenceId>     the operation's X-Reference-Id (shown on the payer's phone page)
  --base-url <url>  MOMO_BASE_URL: the simulator's address (default ${DEFAULT_SIMULATOR_URL})
  --json            print the operation as the simulator answers it
  -h, --help        show this help
  -v, --version     print the version
`;
}

/** `simulator approve|decline <referenceId>`: POST /_simulator/operations/{id}/{verb}. */
function controlCommand(verb: 'approve' | 'decline'): Command {
  return defineCommand({
    name: `simulator ${verb}`,
    summary: `${verb} a pending operation of a running simulator, as the payer`,
    usage: usage(verb),
    flags: { 'base-url': { type: 'string' }, json: { type: 'boolean' } },
    positionals: { min: 1, max: 1, names: '<referenceId>' },
    async run(command) {
      const { args, io } = command;
      const referenceId = args.positionals[0] ?? '';
      const base = flagOrEnv(args.text('base-url'), io.env, 'MOMO_BASE_URL', DEFAULT_SIMULATOR_URL);
      const url = `${withoutTrailingSlashes(base)}/_simulator/operations/${encodeURIComponent(referenceId)}/${verb}`;
      let response: Response;
      try {
        // JSON, as the control routes demand of every POST (a browser form cannot send it).
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        const cause = causeOf(error);
        throw new CliFailure(
          `no simulator answered at ${base} (${String(cause)}): start one with ` +
            '`npx momo-partner-sdk simulator`, or change MOMO_BASE_URL (or --base-url)',
          ExitCode.api,
        );
      }
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (!response.ok) {
        const said = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
        const hint =
          response.status === 404 && body.code === undefined
            ? ` (is ${base} a simulator? change MOMO_BASE_URL or --base-url)`
            : '';
        throw new CliFailure(`simulator ${verb} ${referenceId}: ${said}${hint}`, ExitCode.api);
      }
      command.print(body, `${describe(body, referenceId)}\n`);
      return ExitCode.ok;
    },
  });
}

/** The system error code behind a failed fetch (ECONNREFUSED...), else its message. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown; errors?: unknown[] } })
    .cause;
  const first = (cause?.errors?.[0] as { code?: unknown } | undefined)?.code;
  return String(cause?.code ?? first ?? cause?.message ?? (error as Error).message);
}

function describe(body: Record<string, unknown>, referenceId: string): string {
  const reason = body.reason as { code?: unknown } | undefined;
  const status = String(body.status ?? '').toUpperCase();
  const why = typeof reason?.code === 'string' ? ` (${reason.code})` : '';
  // A transaction names its operation; a consent request has an authReqId instead.
  const what =
    typeof body.operation === 'string' ? body.operation : body.authReqId ? 'consent' : 'operation';
  return `${what} ${referenceId}: ${status}${why}`;
}

export const simulatorApproveCommand = controlCommand('approve');
export const simulatorDeclineCommand = controlCommand('decline');
