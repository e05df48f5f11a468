import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './support';

// --help and --version everywhere; bad usage is exit code 2 with the usage on stderr.
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const COMMANDS = [
  ['simulator', 'Usage: momo-partner-sdk simulator'],
  ['sandbox provision', 'Usage: momo-partner-sdk sandbox provision'],
  ['token', 'Usage: momo-partner-sdk token <product>'],
  ['balance', 'Usage: momo-partner-sdk balance <product>'],
  ['status', 'Usage: momo-partner-sdk status <product> <kind> <referenceId>'],
  ['reconcile', 'Usage: momo-partner-sdk reconcile <file.csv>'],
  ['doctor', 'Usage: momo-partner-sdk doctor'],
  ['simulator approve', 'Usage: momo-partner-sdk simulator approve <referenceId>'],
  ['simulator decline', 'Usage: momo-partner-sdk simulator decline <referenceId>'],
] as const;

describe('momo-partner-sdk --help and --version', { timeout: 60_000 }, () => {
  it('global --help / -h lists every command and the exit codes', async () => {
    const [long, short] = await Promise.all([runCli(['--help']), runCli(['-h'])]);
    expect(long).toMatchObject({ code: 0, stderr: '' });
    expect(short.stdout).toBe(long.stdout);
    for (const [name] of COMMANDS) expect(long.stdout).toContain(`  ${name} `);
    expect(long.stdout).toContain('0 ok, 2 bad usage, 3 API or connection error, 4 FAILED outcome');
  });

  it('global --version / -v prints the package version', async () => {
    const runs = await Promise.all([runCli(['--version']), runCli(['-v'])]);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it.each(COMMANDS)('%s --help, -h and --version', async (name, title) => {
    const words = name.split(' ');
    const [help, short, ver] = await Promise.all([
      runCli([...words, '--help']),
      runCli([...words, 'disbursement', '-h']),
      runCli([...words, '--version']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout.startsWith(title)).toBe(true);
    expect(short.stdout).toBe(help.stdout);
    expect(ver).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('sandbox --help shows its subcommands', async () => {
    const run = await runCli(['sandbox', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: momo-partner-sdk sandbox provision');
  });

  it('exit 2 with the usage on stderr: no command, unknown command or flag, missing subcommand', async () => {
    const runs = await Promise.all([
      runCli([]),
      runCli(['pay']),
      runCli(['token', 'disbursement', '--verbose']),
      runCli(['sandbox']),
      runCli(['sandbox', 'delete']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    for (const run of runs) {
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Usage: momo-partner-sdk');
    }
    expect(runs[0]?.stderr).toContain('Missing command.');
    expect(runs[1]?.stderr).toContain('Unknown command: pay');
    expect(runs[2]?.stderr).toContain("Unknown option '--verbose'");
    expect(runs[3]?.stderr).toContain('Missing or unknown subcommand: sandbox');
  });
});
