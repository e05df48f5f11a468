/**
 * `momo-partner-sdk <command>`: the simulator, sandbox provisioning, and the calls a
 * partner makes by hand (token, balance, status), and reconciliation of a CSV. Exit codes are in output.ts.
 */
import type { Command } from './command';
import { balanceCommand } from './commands/balance';
import { doctorCommand } from './commands/doctor';
import { payoutsCommand } from './commands/payouts';
import { reconcileCommand } from './commands/reconcile';
import { sandboxProvisionCommand } from './commands/sandbox';
import { simulatorCommand } from './commands/simulator';
import { simulatorApproveCommand, simulatorDeclineCommand } from './commands/simulator-control';
import { statusCommand } from './commands/status';
import {
  subscriptionsDueCommand,
  subscriptionsReportCommand,
  subscriptionsRunCommand,
} from './commands/subscriptions';
import { tokenCommand } from './commands/token';
import { ExitCode, type Io, processIo, reportError, UsageError } from './output';
import { VERSION } from './version';

// `simulator approve|decline` before `simulator`: the first command whose words match wins.
const COMMANDS: readonly Command[] = [
  simulatorApproveCommand,
  simulatorDeclineCommand,
  simulatorCommand,
  sandboxProvisionCommand,
  tokenCommand,
  balanceCommand,
  statusCommand,
  reconcileCommand,
  doctorCommand,
  payoutsCommand,
  subscriptionsDueCommand,
  subscriptionsRunCommand,
  subscriptionsReportCommand,
];

const USAGE = `Usage: momo-partner-sdk <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(20)}${c.summary}`).join('\n')}

Options:
  -h, --help      show help (also after any command)
  -v, --version   print the version

Exit codes: 0 ok, 2 bad usage, 3 API or connection error, 4 FAILED outcome,
5 --wait (payouts, subscriptions run: --timeout-ms) timed out, 6 a doctor check failed,
1 unexpected failure of the CLI itself.
`;

/** Runs one command line; resolves to the exit code. */
async function main(argv: string[], io: Io): Promise<number> {
  const first = argv[0];
  if (first === undefined) return reportError(io, new UsageError('Missing command.'), USAGE);
  if (first === '--help' || first === '-h') return print(io, USAGE);
  if (first === '--version' || first === '-v') return print(io, `${VERSION}\n`);
  const command = COMMANDS.find((c) => startsWith(argv, c.name.split(' ')));
  if (!command) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${first} `));
    const groupUsage = group.map((c) => c.usage).join('\n');
    if (group.length === 0) {
      return reportError(io, new UsageError(`Unknown command: ${argv.join(' ')}`), USAGE);
    }
    if (asksFor(argv.slice(1), 'help')) return print(io, groupUsage);
    const names = group.map((c) => c.name).join(', ');
    const problem = `Missing or unknown subcommand: ${argv.join(' ')} (try ${names})`;
    return reportError(io, new UsageError(problem), groupUsage);
  }
  const args = argv.slice(command.name.split(' ').length);
  if (asksFor(args, 'help')) return print(io, command.usage);
  if (asksFor(args, 'version')) return print(io, `${VERSION}\n`);
  try {
    return await command.run(args, io);
  } catch (error) {
    return reportError(io, error, command.usage);
  }
}

function startsWith(argv: string[], words: string[]): boolean {
  return words.every((word, i) => argv[i] === word);
}

/** `--help`/`-h` (or `--version`/`-v`) anywhere before a `--`. */
function asksFor(args: string[], what: 'help' | 'version'): boolean {
  const end = args.indexOf('--');
  const flags = what === 'help' ? ['--help', '-h'] : ['--version', '-v'];
  return (end === -1 ? args : args.slice(0, end)).some((a) => flags.includes(a));
}

function print(io: Io, text: string): number {
  io.out(text);
  return ExitCode.ok;
}

/** Waits until stdout and stderr have taken everything written, then exits. */
function exit(code: number): void {
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2), processIo()).then(exit, (error: unknown) => {
  process.stderr.write(`momo-partner-sdk: ${error instanceof Error ? error.message : error}\n`);
  exit(ExitCode.internal);
});
