import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { progressBar } from '../../src/cli/payouts/progress';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `payouts` as a child process against a loopback simulator that enforces the provider's caps.
const { sim, env } = useLoopbackSimulator({
  limits: { lookupsPerSecond: 40, createsPerSecond: 40 },
});
const { subscriptionKey, apiUser } = sim.credentials;
const SUCCEEDS = '46733123999';
const REJECTED = '46733123451'; // FAILED APPROVAL_REJECTED
const NO_FUNDS = '46733123455'; // FAILED NOT_ENOUGH_FUNDS
const PENDING_FOREVER = '46733123453';
const NO_HOLDER = '46733123456'; // not an active account holder
/** What the check says of an MSISDN that is not one (src/schemas/rules.ts). */
const MSISDN_RULE =
  'must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999)';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Writes `lines` as the CSV file; returns its path. */
async function csv(lines: string[], name = 'payroll.csv'): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

/** `payouts <file> --batch <batch>` with the state under the test's folder. */
function payouts(file: string, batch: string, more: string[] = [], extraEnv = {}) {
  const args = ['payouts', file, '--batch', batch, '--state-dir', join(dir, 'state'), ...more];
  return runCli(args, { ...env(), ...extraEnv });
}

async function results(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(file)) rows.push(record.values);
  return rows;
}

/** Creating calls the simulator received (transfers), refused ones included. */
const transfersPosted = () =>
  sim.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
  ).length;

describe('momo-partner-sdk payouts', { timeout: 60_000 }, () => {
  it('pays every row, within the caps: mixed outcomes, results in input order, --json summary', async () => {
    const file = await csv([
      'key,name,msisdn,amount,currency,payeeNote,memo',
      `emp-1,"Doe, Jane",${SUCCEEDS},10.50,EUR,May salary,first`,
      `emp-2,Ama,${REJECTED},5,EUR,,"said ""hi"""`,
      `emp-3,Kofi,${NO_FUNDS},7,EUR,,`,
      'emp-4,Esi,0244000111,3,EUR,,', // a local number: REJECTED, kept as written
      `emp-5,Yaw,${SUCCEEDS},2.25,EUR,,`,
    ]);
    const before = transfersPosted();
    const run = await payouts(file, 'payroll-1', [
      '--json',
      '--create-rate',
      '20',
      '--lookup-rate',
      '20',
    ]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(''); // --json: no progress
    expect(JSON.parse(run.stdout)).toEqual({
      batch: 'payroll-1',
      out: join(dir, 'payroll.results.csv'),
      summary: {
        total: 5,
        successful: 2,
        failed: 2,
        rejected: 1,
        skipped: 0,
        unresolved: 0,
        amounts: { EUR: { successful: '12.75', failed: '12' } },
        failures: { APPROVAL_REJECTED: 1, NOT_ENOUGH_FUNDS: 1 },
      },
      problems: [
        {
          line: 5,
          key: 'emp-4',
          reason: `line 5: column "msisdn" ("0244000111"): ${MSISDN_RULE}`,
        },
      ],
    });
    expect(transfersPosted() - before).toBe(4); // the REJECTED row is never sent
    expect(sim.requests.filter((r) => r.limited)).toEqual([]); // paced under the caps

    const text = await readFile(join(dir, 'payroll.results.csv'), 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'key,name,msisdn,amount,currency,payeeNote,memo,referenceId,status,reason,financialTransactionId',
    );
    const rows = await results(join(dir, 'payroll.results.csv'));
    expect(rows.map((r) => [r.key, r.status, r.reason])).toEqual([
      ['emp-1', 'SUCCESSFUL', ''],
      ['emp-2', 'FAILED', 'APPROVAL_REJECTED'],
      ['emp-3', 'FAILED', 'NOT_ENOUGH_FUNDS'],
      ['emp-4', 'REJECTED', `line 5: column "msisdn" ("0244000111"): ${MSISDN_RULE}`],
      ['emp-5', 'SUCCESSFUL', ''],
    ]);
    expect(rows[0]).toMatchObject({ name: 'Doe, Jane', amount: '10.50', payeeNote: 'May salary' });
    expect(rows[3]).toMatchObject({ msisdn: '0244000111', referenceId: '' });
    expect(rows[1]?.memo).toBe('said "hi"');
    for (const row of [rows[0], rows[1], rows[2], rows[4]]) {
      expect(row?.referenceId).toMatch(UUID_V4);
      expect(sim.transaction(row?.referenceId ?? '')?.status).toBe(row?.status);
    }
    expect(rows[0]?.financialTransactionId).not.toBe('');
    expect(sim.transaction(rows[0]?.referenceId ?? '')).toMatchObject({
      body: { payee: { partyIdType: 'MSISDN', partyId: SUCCEEDS }, externalId: 'emp-1' },
    });
    expectNoneOf(run, [subscriptionKey, apiUser.key]);
  });

  it('a re-run continues: rows pending at --timeout-ms are exit 5, then looked up, never sent twice', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `a,${SUCCEEDS},1,EUR`,
      `b,${PENDING_FOREVER},2,EUR`,
    ]);
    const before = transfersPosted();
    const first = await payouts(file, 'rerun-1', ['--timeout-ms', '1500']);
    expect(first.code, first.stderr).toBe(5);
    expect(first.stdout).toContain('1 UNRESOLVED');
    const [a, b] = await results(join(dir, 'payroll.results.csv'));
    expect(a).toMatchObject({ status: 'SUCCESSFUL' });
    expect(b).toMatchObject({ status: 'UNRESOLVED', reason: 'WAIT_TIMEOUT' });
    expect(b?.referenceId).toMatch(UUID_V4);

    sim.settle(b?.referenceId ?? '', 'SUCCESSFUL');
    const second = await payouts(file, 'rerun-1');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^payouts: 2\/2 rows ended \(successful 2, failed 0, pending 0/m);
    const after = await results(join(dir, 'payroll.results.csv'));
    expect(after.map((r) => [r.referenceId, r.status])).toEqual([
      [a?.referenceId, 'SUCCESSFUL'],
      [b?.referenceId, 'SUCCESSFUL'],
    ]);
    expect(transfersPosted() - before).toBe(2); // each row created once, over both runs
  });

  it('the state folder deleted: a re-run sends under the same reference ids and pays nothing twice', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `x1,${SUCCEEDS},4,EUR`,
      `x2,${NO_FUNDS},5,EUR`,
      `x3,${REJECTED},6,EUR`,
    ]);
    const first = await payouts(file, 'lost-state');
    expect(first.code, first.stderr).toBe(0);
    const rows = await results(join(dir, 'payroll.results.csv'));
    const balance = await sim.client().disbursement.getBalance();

    await rm(join(dir, 'state'), { recursive: true });
    const before = transfersPosted();
    const second = await payouts(file, 'lost-state');
    expect(second.code, second.stderr).toBe(0);
    expect(transfersPosted() - before).toBe(3); // each sent again under its id: 409, looked up
    expect(await results(join(dir, 'payroll.results.csv'))).toEqual(rows);
    expect(await sim.client().disbursement.getBalance()).toEqual(balance);
  });

  it('a run killed mid-writing left a temporary file beside the results: the next run removes it', async () => {
    const file = await csv(['key,msisdn,amount,currency', `t1,${SUCCEEDS},1,EUR`]);
    const dead = join(dir, 'payroll.results.csv.4194999.tmp'); // above any pid_max: gone
    const live = join(dir, `payroll.results.csv.${process.pid}.tmp`); // a running process's
    await Promise.all([writeFile(dead, 'key,msisdn\r\nt1,'), writeFile(live, '')]);
    const run = await payouts(file, 'leftovers');
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      'payroll.csv',
      'payroll.results.csv',
      `payroll.results.csv.${process.pid}.tmp`,
      'state',
    ]);
  });

  it('--check-account-holder: a payee who is not an active account holder is SKIPPED, never sent', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `s1,${SUCCEEDS},1,EUR`,
      `s2,${NO_HOLDER},2,EUR`,
    ]);
    const before = transfersPosted();
    const run = await payouts(file, 'holders', ['--check-account-holder']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 SUCCESSFUL, 0 FAILED, 0 REJECTED, 1 SKIPPED, 0 UNRESOLVED');
    const rows = await results(join(dir, 'payroll.results.csv'));
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['s1', 'SUCCESSFUL'],
      ['s2', 'SKIPPED'],
    ]);
    expect(transfersPosted() - before).toBe(1);
  });

  it('--dry-run sends nothing, and prints the totals per currency and the estimate', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `d1,${SUCCEEDS},10.25,EUR`,
      `d2,${SUCCEEDS},5.25,EUR`,
      `d3,${SUCCEEDS},1000,UGX`,
      `d4,${SUCCEEDS},3,eur`,
    ]);
    const before = sim.requests.length;
    const rates = ['--create-rate', '10', '--lookup-rate', '20'];
    const [human, json] = await Promise.all([
      payouts(file, 'dry-1', ['--dry-run', ...rates]),
      payouts(file, 'dry-2', ['--dry-run', '--json', ...rates]),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('3 to send');
    expect(human.stdout).toContain('EUR: 15.50 to send');
    expect(human.stdout).toContain('UGX: 1000 to send');
    expect(human.stdout).toMatch(/REJECTED line 5: column "currency" \("eur"\): .* \(key "d4"\)/);
    expect(human.stdout).toContain(
      'estimate: about 31 s (3 creates / 10 per s + 3 lookups / 20 per s + 30 s to settle)',
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      dryRun: true,
      rows: 4,
      toSend: 3,
      rejected: 1,
      totals: { EUR: '15.50', UGX: '1000' },
      estimate: { seconds: 31, creates: 3, lookups: { status: 3, accountHolder: 0 } },
    });
    expect(sim.requests.length).toBe(before);
    await expect(readFile(join(dir, 'payroll.results.csv'))).rejects.toThrow();
  });

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
      const file = lines ? await csv(lines) : join(dir, 'missing.csv');
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
    const sent = await readFile(join(dir, 'payroll.results.csv'), 'utf8');

    await csv([...rows.slice(0, 2), `k2,${SUCCEEDS},40,EUR`, `k3,${SUCCEEDS},1,EUR`]);
    const before = sim.requests.length;
    const run = await payouts(file, 'changed');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 3: column "amount" of key "k2" was "4" .* and is "40" now/);
    expect(sim.requests.length).toBe(before);
    expect(await readFile(join(dir, 'payroll.results.csv'), 'utf8')).toBe(sent);

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
    const [row] = await results(join(dir, 'payroll.results.csv'));
    expect(row).toMatchObject({ key: 'k1', status: expect.stringMatching(/^(PENDING)?$/) });
  });

  it('on a terminal, a bar with the counts by status, the rate and the time left', () => {
    const counts = {
      total: 300,
      rejected: 2,
      skipped: 1,
      sent: 150,
      successful: 90,
      failed: 7,
      pending: 53,
    };
    // 100 rows ended in the 100 s since the run started (none before): 1 row/s, 200 left.
    expect(progressBar(counts, 0, 100_000)).toBe(
      '[########----------------] 100/300 successful 90, failed 7, pending 53, rejected 2, skipped 1 · 1.0 rows/s · 3 min 20 s left',
    );
  });
});
