import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './support';

// The CLI simulator's model flags: the provider's caps, currency, environment, balances.
async function until<T>(read: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('momo-partner-sdk simulator: model flags', { timeout: 60_000 }, () => {
  it('serves the currency, environment, balance and lookup cap it was given', async () => {
    const cli = await startCli([
      'simulator',
      '--port',
      '0',
      '--lookups-per-second',
      '2',
      '--creates-per-second',
      '7',
      '--currency',
      'XAF',
      '--target-environment',
      'mtncameroon',
      '--initial-balance',
      '5000.00',
    ]);
    try {
      const url = await until(() => /listening on (http:\/\/\S+)/.exec(cli.out())?.[1]);
      expect(cli.out()).toMatch(/limits\s+2\/s lookups, 7\/s creating calls/);
      const headers = {
        'Ocp-Apim-Subscription-Key': 'sim-subscription-key',
        'X-Target-Environment': 'mtncameroon',
      };
      const balance = () => fetch(`${url}/disbursement/v1_0/account/balance`, { headers });
      const answers = await Promise.all([balance(), balance(), balance()]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 200, 429]);
      const ok = answers.find((a) => a.status === 200);
      expect(await ok?.json()).toEqual({ availableBalance: '5000.00', currency: 'XAF' });
      expect(answers.find((a) => a.status === 429)?.headers.get('retry-after')).toBe('1');
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it.each([
    ['--lookups-per-second', '0'],
    ['--lookups-per-second', 'ten'],
    ['--creates-per-second', '2.5'],
    ['--creates-per-second', '-1'],
    ['--currency', 'eur'],
    ['--initial-balance', '1e6'],
    ['--target-environment', 'two words'],
  ])('%s %s is a usage error (exit 2) naming the flag', async (flag, value) => {
    const run = await runCli(['simulator', '--port', '0', `${flag}=${value}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${flag} must be`);
    expect(run.stdout).not.toContain('listening');
  });

  it('--help lists the flags', async () => {
    const run = await runCli(['simulator', '--help']);
    for (const flag of [
      '--lookups-per-second',
      '--creates-per-second',
      '--currency',
      '--target-environment',
      '--initial-balance',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });
});
