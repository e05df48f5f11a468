import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { results, SUCCEEDS, usePayouts } from './payouts-support';
import { runCli } from './support';

// `payouts` refusing to start or to go on: bad input, a changed batch, bad usage, bad credentials.
const { sim, env, dir, csv, payouts, transfersPosted } = usePayouts();

describe('momo-partner-sdk payouts', { timeout: 60_000 }, () => {
  const BAD: [string, string[] | undefined, RegExp][] = [
    ['an unreadable file', undefined, /missing\.csv: cannot read the file \(ENOENT\)/],
    ['malformed CSV', ['key,msisdn,amount,currency', 'k1,"0244,1,EUR'], /line 2: a quoted field/],
    [
      'a row of the wrong width',
      ['key,msisdn,amount,currency', 'k1,0244,1,EUR,x'],
      /line 2: 5 fields/,
    ],
    [
      'a missing column',
      ['key,msisdn,currency', 'k1,0244,EUR'],
      /line 1: the header has no "amount" column/,
    ],
    [
      'no party column',
      ['key,amount,currency', 'k1,1,EUR'],
      /line 1: the header has no "msisdn" column/,
    ],
  ];

  it.each(BAD)(
    '%s: exit 2 naming the line and the column, nothing sent',
    async (_, lines, message) => {
      const file = lines ? await csv(lines) : join(dir(), 'missing.csv');
      const before = sim.requests.length;
      const run = await payouts(file, 'bad-input');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(sim.requests.length).toBe(before);
    },
  );

  it('a --batch whose stored rows disagree with the file: exit 2 naming the row and the column, nothing sent', async () => {
    const rows = ['key,msisdn,amount,currency', `k1,${SUCCEEDS},1,EUR`, `k2,${SUCCEEDS},4,EUR`];
    const file = await csv(rows);
    expect((await payouts(file, 'changed')).code).toBe(0);
    const sent = await readFile(join(dir(), 'payroll.results.csv'), 'utf8');

    await csv([...rows.slice(0, 2), `k2,${SUCCEEDS},40,EUR`, `k3,${SUCCEEDS},1,EUR`]);
    const before = sim.requests.length;
    const run = await payouts(file, 'changed');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 3: column "amount" of key "k2" was "4" .* and is "40" now/);
    expect(sim.requests.length).toBe(before);
    expect(await readFile(join(dir(), 'payroll.results.csv'), 'utf8')).toBe(sent);

    const other = await payouts(file, 'changed', ['--operation', 'disbursement.deposit']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/line 2: column "key" "k1" was sent .* as disbursement\.transfer/);
  });

  it('bad usage is exit 2: no --batch, an operation the columns cannot make', async () => {
    const file = await csv(['key,msisdn,amount,currency', `k1,${SUCCEEDS},1,EUR`]);
    const noBatch = await runCli(['payouts', file], env());
    expect(noBatch.code).toBe(2);
    expect(noBatch.stderr).toContain('Missing --batch <id>');
    const help = await runCli(['payouts', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: momo-partner-sdk payouts <file.csv> --batch <id>/);
    const refund = await payouts(file, 'usage', ['--operation', 'disbursement.refund']);
    expect(refund.code).toBe(2);
    expect(refund.stderr).toContain('Unknown operation for a CSV: disbursement.refund');
  });

  it('refused credentials stop the run: exit 3 naming the variable, nothing paid', async () => {
    const file = await csv(['key,msisdn,amount,currency', `k1,${SUCCEEDS},1,EUR`]);
    const before = transfersPosted();
    const run = await payouts(file, 'refused', [], { MOMO_API_KEY: 'wrong-api-key-0000' });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('change MOMO_API_USER or MOMO_API_KEY');
    expect(transfersPosted()).toBe(before);
    const [row] = await results(join(dir(), 'payroll.results.csv'));
    expect(row).toMatchObject({ key: 'k1', status: expect.stringMatching(/^(PENDING)?$/) });
  });
});
