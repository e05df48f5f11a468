import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/cli/command';
import { CliFailure, ExitCode, type Io, UsageError } from '../../src/cli/output';
import { useLoopbackSimulator } from './support';

// The one preamble of the CLI's commands (the next ones, payouts and reconcile, included):
// a command defined with it, run in process with a stand-in Io against a loopback simulator.
const { sim, env } = useLoopbackSimulator();
const transfer = {
  amount: '3',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
} as const;

function captured(vars: Record<string, string>): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    env: vars,
    out: (text: string) => {
      io.stdout += text;
    },
    err: (text: string) => {
      io.stderr += text;
    },
  };
  return io;
}

/** A small API command: looks up a transfer, the way `status` does. */
const lookUp = defineCommand({
  name: 'look-up',
  summary: 'a test command',
  usage: 'Usage: look-up <product> <referenceId>',
  connection: true,
  flags: { note: { type: 'string' } },
  positionals: { min: 2, max: 2, names: '<product> <referenceId>' },
  async run(command) {
    const product = command.product();
    const referenceId = command.args.positionals[1] ?? '';
    command.progress(`looking up ${referenceId} (${command.args.text('note') ?? 'no note'})`);
    try {
      const result = await command.client(product).disbursement.getTransfer(referenceId);
      command.print(result, `${result.status}\n`);
      return ExitCode.ok;
    } catch (error) {
      throw command.explain(error, product);
    }
  },
});

describe('defineCommand: the preamble every command shares', { timeout: 30_000 }, () => {
  it('parses its flags and the connection flags; --json prints JSON and silences progress', async () => {
    const made = await sim.client().disbursement.transfer(transfer);
    await made.wait();
    const human = captured(env());
    const code = await lookUp.run(
      ['disbursement', made.referenceId, '--note', 'n1', '--base-url', env().MOMO_BASE_URL ?? ''],
      human,
    );
    expect(code).toBe(ExitCode.ok);
    expect(human.stdout).toBe('SUCCESSFUL\n');
    expect(human.stderr).toBe(`looking up ${made.referenceId} (n1)\n`);
    const json = captured(env());
    await lookUp.run(['disbursement', made.referenceId, '--json'], json);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'SUCCESSFUL' });
    expect(json.stderr).toBe('');
  });

  it('bad usage is a UsageError: a flag, a positional, a product, a credential not set', async () => {
    const failures = await Promise.all(
      [
        [['disbursement', randomUUID(), '--verbose'], env()],
        [['disbursement'], env()],
        [['payments', randomUUID()], env()],
        [['disbursement', randomUUID()], { ...env(), MOMO_API_KEY: '' }],
      ].map(([args, vars]) =>
        lookUp.run(args as string[], captured(vars as Record<string, string>)).catch((e) => e),
      ),
    );
    expect(failures.map((e) => e instanceof UsageError)).toEqual([true, true, true, true]);
    expect(failures.map((e) => (e as Error).message)).toEqual([
      expect.stringContaining("Unknown option '--verbose'"),
      'Missing <product> <referenceId>.',
      'Unknown product: payments (one of disbursement, collection, remittance)',
      'Not set: MOMO_API_KEY (or MOMO_DISBURSEMENT_API_KEY).',
    ]);
  });

  it('explain: a refused credential or target environment names the variable to change', async () => {
    const refused = await lookUp
      .run(['disbursement', randomUUID()], captured({ ...env(), MOMO_API_KEY: 'wrong-key' }))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(CliFailure);
    expect(refused).toMatchObject({ exitCode: ExitCode.api });
    expect(refused.message).toContain('change MOMO_API_USER or MOMO_API_KEY');
    const environment = await lookUp
      .run(['disbursement', randomUUID(), '--target-environment', 'mtnghana'], captured(env()))
      .catch((e) => e);
    expect(environment).toBeInstanceOf(CliFailure);
    expect(environment.message).toMatch(
      /^disbursement: the service refused target environment 'mtnghana'.*change MOMO_TARGET_ENVIRONMENT/,
    );
  });
});
