import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mostInWindow } from '../support/sliding-window';
import { PENDING_FOREVER, REJECTED, SUCCEEDS, transfer, useReconcile } from './reconcile-support';
import { expectNoneOf, runCli } from './support';

// What `reconcile` reports: verdicts in input order, a report read back in, lookups paced,
// duplicates, unchecked amounts and what a payouts batch paid that the books lack.
const { sim, env, dir, books, since } = useReconcile();
const { subscriptionKey, apiUser } = sim.credentials;

describe('momo-partner-sdk reconcile', { timeout: 60_000 }, () => {
  it('a mixed file: a report in input order, extra columns kept in place, and a --json summary', async () => {
    const momo = sim.client();
    const settled = await momo.disbursement.transfer(transfer(SUCCEEDS));
    const refused = await momo.disbursement.deposit(transfer(REJECTED));
    const pending = await momo.disbursement.transfer(transfer(PENDING_FOREVER));
    const paid = await momo.collection.requestToPay({
      amount: '3',
      currency: 'EUR',
      payer: { partyIdType: 'MSISDN', partyId: SUCCEEDS },
    });
    await Promise.all([settled.wait(), refused.wait(), paid.wait()]);
    const unknown = randomUUID();
    const file = await books(
      'books.csv',
      'msisdn,referenceId,note,operation,status,amount,currency\r\n' +
        `0244000001,${settled.referenceId},"salary, May",disbursement.transfer,PENDING,3,EUR\r\n` +
        `0244000002,${refused.referenceId},"say ""hi""",disbursement.deposit,SUCCESSFUL,3.00,EUR\r\n` +
        `0244000003,${pending.referenceId},,disbursement.transfer,,,\r\n` +
        `0244000004,${unknown},,disbursement.transfer,PENDING,3,EUR\r\n` +
        `0244000005,${paid.referenceId},shop,collection.requestToPay,successful,3.0,eur\r\n`,
    );

    const run = await runCli(['reconcile', file], env());
    expect(run.stderr).toContain('5/5 checked');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toBe(
      `${file}: 1 MATCH, 1 SETTLED, 1 MISMATCH, 1 STILL_PENDING, 1 NOT_FOUND\nreport: ${join(dir(), 'books.report.csv')}\n`,
    );
    const report = await readFile(join(dir(), 'books.report.csv'), 'utf8');
    expect(report).toBe(
      'msisdn,referenceId,note,operation,status,amount,currency,providerStatus,verdict,reason\r\n' +
        `0244000001,${settled.referenceId},"salary, May",disbursement.transfer,PENDING,3,EUR,SUCCESSFUL,SETTLED,\r\n` +
        `0244000002,${refused.referenceId},"say ""hi""",disbursement.deposit,SUCCESSFUL,3.00,EUR,FAILED,MISMATCH,"status: books SUCCESSFUL, provider FAILED (APPROVAL_REJECTED)"\r\n` +
        `0244000003,${pending.referenceId},,disbursement.transfer,,,,PENDING,STILL_PENDING,\r\n` +
        `0244000004,${unknown},,disbursement.transfer,PENDING,3,EUR,,NOT_FOUND,\r\n` +
        `0244000005,${paid.referenceId},shop,collection.requestToPay,successful,3.0,eur,SUCCESSFUL,MATCH,\r\n`,
    );

    const out = join(dir(), 'elsewhere.csv');
    const json = await runCli(['reconcile', file, '--out', out, '--json'], env());
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({
      report: out,
      summary: {
        total: 5,
        MATCH: 1,
        SETTLED: 1,
        MISMATCH: 1,
        STILL_PENDING: 1,
        NOT_FOUND: 1,
        OTHER_PLATFORM: 0,
        ERROR: 0,
        DUPLICATE: 0,
        MISSING_FROM_BOOKS: 0,
      },
    });
    expect(await readFile(out, 'utf8')).toBe(report);
    expectNoneOf(run, [subscriptionKey, apiUser.key]);
    expectNoneOf(json, [subscriptionKey, apiUser.key]);
  });

  it('a report read back in gets its verdict columns replaced, not repeated', async () => {
    const id = randomUUID();
    const file = await books(
      'again.csv',
      `referenceId,operation,providerStatus,verdict,reason,msisdn\n${id},disbursement.transfer,,NOT_FOUND,,0244000009\n`,
    );
    const run = await runCli(['reconcile', file], env());
    expect(run.code).toBe(0);
    expect(await readFile(join(dir(), 'again.report.csv'), 'utf8')).toBe(
      `referenceId,operation,msisdn,providerStatus,verdict,reason\r\n${id},disbursement.transfer,0244000009,,NOT_FOUND,\r\n`,
    );
  });

  it('--lookup-rate keeps the status lookups under that many per sliding second', async () => {
    const rows = Array.from({ length: 16 }, () => `${randomUUID()},disbursement.transfer`);
    const file = await books('paced.csv', `referenceId,operation\n${rows.join('\n')}\n`);
    const before = sim.requests.length;
    const run = await runCli(['reconcile', file, '--lookup-rate', '4', '--json'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ total: 16, NOT_FOUND: 16 });
    const arrivals = sim.requests
      .slice(before)
      .filter((r) => r.method === 'GET')
      .map((r) => r.at);
    expect(arrivals).toHaveLength(16);
    // Counted where they arrive: a child process's requests reach the simulator (in this
    // busy test process) with a delay that varies, by tens of ms on a loaded 2-core
    // machine. The check is generous: at most 4 in any 800 ms (4 paced lookups are 250 ms
    // apart; without pacing, 8 go at once), and the 16th no sooner than 3 paced seconds
    // after the first less that jitter (a slower machine only spreads them further).
    expect(mostInWindow(arrivals, 1_000 - 200)).toBeLessThanOrEqual(4);
    const sorted = [...arrivals].sort((x, y) => x - y);
    expect((sorted[15] as number) - (sorted[0] as number)).toBeGreaterThanOrEqual(3 * 1_000 - 200);
  });

  it('a duplicate, an unchecked amount and, with --from-store file:, the row a payouts batch paid that the books lack', async () => {
    const state = join(dir(), 'state');
    const payroll = await books(
      'payroll.csv',
      `key,msisdn,amount,currency\na,${SUCCEEDS},10,EUR\nb,${SUCCEEDS},10,EUR\nc,${SUCCEEDS},10,EUR\n`,
    );
    const paid = await runCli(
      ['payouts', payroll, '--batch', 'payroll-nov', '--state-dir', state],
      env(),
    );
    expect(paid.code, paid.stderr).toBe(0);
    const results = (await readFile(join(dir(), 'payroll.results.csv'), 'utf8')).split('\r\n');
    const idOf = (key: string) => results.find((line) => line.startsWith(`${key},`))?.split(',')[4];
    const [a, b, c] = [idOf('a'), idOf('b'), idOf('c')];
    expect(c).toMatch(/^[0-9a-f-]{36}$/);
    // The provider's answer for b has no amount.
    sim.inject({
      kind: 'status',
      status: 200,
      body: {
        status: 'SUCCESSFUL',
        currency: 'EUR',
        financialTransactionId: '777',
        externalId: 'b',
      },
      match: `GET /disbursement/v1_0/transfer/${b}`,
    });
    const file = await books(
      'november.csv',
      'referenceId,operation,status,amount,currency,note\n' +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,first\n` +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,again\n` +
        `${b},disbursement.transfer,SUCCESSFUL,999999.99,EUR,big\n`,
    );
    const before = sim.requests.length;
    const run = await runCli(
      ['reconcile', file, '--from-store', `file:${state}`, '--batch', 'payroll-nov'],
      env(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${file}: 2 MATCH, 1 DUPLICATE, 1 MISSING_FROM_BOOKS`);
    // a, b and c looked up once each: the duplicate not again.
    expect(since(before).lookups).toBe(3);
    expect(await readFile(join(dir(), 'november.report.csv'), 'utf8')).toBe(
      'referenceId,operation,status,amount,currency,note,providerStatus,verdict,reason\r\n' +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,first,SUCCESSFUL,MATCH,\r\n` +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,again,,DUPLICATE,the same referenceId as line 2 (reconciled there): the books list this payment twice\r\n` +
        `${b},disbursement.transfer,SUCCESSFUL,999999.99,EUR,big,SUCCESSFUL,MATCH,amount not compared: the provider's answer has none\r\n` +
        `${c},disbursement.transfer,,,,,SUCCESSFUL,MISSING_FROM_BOOKS,"sent by the SDK (batch payroll-nov, key c, recorded SUCCESSFUL), not in the books"\r\n`,
    );
  });
});
