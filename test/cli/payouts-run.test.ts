import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/cli/payouts/progress';
import {
  MSISDN_RULE,
  NO_FUNDS,
  NO_HOLDER,
  REJECTED,
  results,
  SUCCEEDS,
  UUID_V4,
  usePayouts,
} from './payouts-support';
import { expectNoneOf } from './support';

// `payouts` paying a file: the outcomes, the account-holder check, the dry run, the bar.
const { sim, dir, csv, payouts, transfersPosted } = usePayouts();
const { subscriptionKey, apiUser } = sim.credentials;

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
      out: join(dir(), 'payroll.results.csv'),
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

    const text = await readFile(join(dir(), 'payroll.results.csv'), 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'key,name,msisdn,amount,currency,payeeNote,memo,referenceId,status,reason,financialTransactionId',
    );
    const rows = await results(join(dir(), 'payroll.results.csv'));
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
    const rows = await results(join(dir(), 'payroll.results.csv'));
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
    await expect(readFile(join(dir(), 'payroll.results.csv'))).rejects.toThrow();
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
