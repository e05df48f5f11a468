import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mostInWindow } from '../support/sliding-window';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `reconcile` as a child process against a loopback simulator: a books file in, a report out.
const { sim, env } = useLoopbackSimulator();
const { subscriptionKey, apiUser } = sim.credentials;
const SUCCEEDS = '46733123999';
const REJECTED = '46733123451';
const PENDING_FOREVER = '46733123453';
const transfer = (partyId: string) => ({
  amount: '3',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN' as const, partyId },
});

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-reconcile-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A books file in the test folder; its path. */
async function books(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The simulator's requests from `from` on: status lookups (GET) and any at all. */
function since(from: number) {
  const requests = sim.requests.slice(from);
  return { all: requests.length, lookups: requests.filter((r) => r.method === 'GET').length };
}

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
      `${file}: 1 MATCH, 1 SETTLED, 1 MISMATCH, 1 STILL_PENDING, 1 NOT_FOUND\nreport: ${join(dir, 'books.report.csv')}\n`,
    );
    const report = await readFile(join(dir, 'books.report.csv'), 'utf8');
    expect(report).toBe(
      'msisdn,referenceId,note,operation,status,amount,currency,providerStatus,verdict,reason\r\n' +
        `0244000001,${settled.referenceId},"salary, May",disbursement.transfer,PENDING,3,EUR,SUCCESSFUL,SETTLED,\r\n` +
        `0244000002,${refused.referenceId},"say ""hi""",disbursement.deposit,SUCCESSFUL,3.00,EUR,FAILED,MISMATCH,"status: books SUCCESSFUL, provider FAILED (APPROVAL_REJECTED)"\r\n` +
        `0244000003,${pending.referenceId},,disbursement.transfer,,,,PENDING,STILL_PENDING,\r\n` +
        `0244000004,${unknown},,disbursement.transfer,PENDING,3,EUR,,NOT_FOUND,\r\n` +
        `0244000005,${paid.referenceId},shop,collection.requestToPay,successful,3.0,eur,SUCCESSFUL,MATCH,\r\n`,
    );

    const out = join(dir, 'elsewhere.csv');
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
    expect(await readFile(join(dir, 'again.report.csv'), 'utf8')).toBe(
      `referenceId,operation,msisdn,providerStatus,verdict,reason\r\n${id},disbursement.transfer,0244000009,,NOT_FOUND,\r\n`,
    );
  });

  it('exit 2 naming the line (and column): nothing is looked up, no report is written', async () => {
    const id = randomUUID();
    const header = 'referenceId,operation,status,amount,currency\n';
    const good = `${id},disbursement.transfer,PENDING,3,EUR\n`;
    const files = {
      unterminated: await books(
        'unterminated.csv',
        `${header}${good}${id},"disbursement.transfer,PENDING,3,EUR\n`,
      ),
      missing: await books('missing.csv', `operation,amount\ndisbursement.transfer,3\n`),
      badRows: await books(
        'bad-rows.csv',
        `${header}${good}${good}${id},disbursement.transfer,PENDING,ten,EUR\n${id},disbursement.teleport,,,\n`,
      ),
    };
    const before = sim.requests.length;
    const [unterminated, missing, badRows, absent, noFile] = await Promise.all([
      runCli(['reconcile', files.unterminated], env()),
      runCli(['reconcile', files.missing], env()),
      runCli(['reconcile', files.badRows], env()),
      runCli(['reconcile', join(dir, 'absent.csv')], env()),
      runCli(['reconcile'], env()),
    ]);
    for (const run of [unterminated, missing, badRows, absent, noFile]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(unterminated.stderr).toContain(
      `${files.unterminated}: line 3: a quoted field opened on line 3 is never closed`,
    );
    expect(missing.stderr).toContain(
      `${files.missing}: line 1: the header has no "referenceId" column`,
    );
    expect(badRows.stderr).toContain(`${files.badRows}: nothing was looked up`);
    expect(badRows.stderr).toContain('line 4, column amount: must be a decimal string');
    expect(badRows.stderr).toContain('line 5, column operation: "disbursement.teleport"');
    expect(absent.stderr).toContain(`cannot read ${join(dir, 'absent.csv')}`);
    expect(noFile.stderr).toContain('Missing <file.csv>.');
    expect(since(before)).toEqual({ all: 0, lookups: 0 });
    for (const name of ['unterminated', 'missing', 'bad-rows']) {
      expect(existsSync(join(dir, `${name}.report.csv`)), name).toBe(false);
    }
  });

  it('exit 3 when the credentials are refused: the variable named, nothing looked up', async () => {
    const file = await books(
      'refused.csv',
      `referenceId,operation\n${randomUUID()},disbursement.transfer\n`,
    );
    const before = sim.requests.length;
    const run = await runCli(['reconcile', file], { ...env(), MOMO_API_KEY: 'not-the-key' });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('change MOMO_API_USER or MOMO_API_KEY');
    expect(since(before).lookups).toBe(0);
    expect(existsSync(join(dir, 'refused.report.csv'))).toBe(false);
    expectNoneOf(run, [subscriptionKey, apiUser.key, 'not-the-key']);
  });

  it('exit 3 when the service cannot be reached', async () => {
    const file = await books(
      'unreachable.csv',
      `referenceId,operation\n${randomUUID()},collection.requestToPay\n`,
    );
    const run = await runCli(['reconcile', file], {
      ...env(),
      MOMO_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(3);
    expect(existsSync(join(dir, 'unreachable.report.csv'))).toBe(false);
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

  it('--lookup-rate, --from-store, --batch and --since are checked like the other flags: exit 2, nothing sent', async () => {
    const file = await books(
      'flags.csv',
      `referenceId,operation\n${randomUUID()},disbursement.transfer\n`,
    );
    const before = sim.requests.length;
    const runs = await Promise.all([
      runCli(['reconcile', file, '--lookup-rate', '0'], env()),
      runCli(['reconcile', file, '--lookup-rate', 'ten'], env()),
      runCli(['reconcile', file, '--batch', 'payroll'], env()),
      runCli(['reconcile', file, '--from-store', 'file:.momo', '--since', 'yesterday'], env()),
      runCli(['reconcile', file, '--from-store', 'mysql://db/momo'], env()),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain('--lookup-rate must be a positive whole number');
    expect(runs[1]?.stderr).toContain('--lookup-rate must be a positive whole number');
    expect(runs[2]?.stderr).toContain('--batch and --since choose what --from-store lists');
    expect(runs[3]?.stderr).toContain('--since must be an ISO 8601 date or time');
    expect(runs[4]?.stderr).toContain('Unknown store "mysql:"');
    expect(sim.requests.length).toBe(before);
  });

  it('a duplicate, an unchecked amount and, with --from-store file:, the row a payouts batch paid that the books lack', async () => {
    const state = join(dir, 'state');
    const payroll = await books(
      'payroll.csv',
      `key,msisdn,amount,currency\na,${SUCCEEDS},10,EUR\nb,${SUCCEEDS},10,EUR\nc,${SUCCEEDS},10,EUR\n`,
    );
    const paid = await runCli(
      ['payouts', payroll, '--batch', 'payroll-nov', '--state-dir', state],
      env(),
    );
    expect(paid.code, paid.stderr).toBe(0);
    const results = (await readFile(join(dir, 'payroll.results.csv'), 'utf8')).split('\r\n');
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
    expect(await readFile(join(dir, 'november.report.csv'), 'utf8')).toBe(
      'referenceId,operation,status,amount,currency,note,providerStatus,verdict,reason\r\n' +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,first,SUCCESSFUL,MATCH,\r\n` +
        `${a},disbursement.transfer,SUCCESSFUL,10,EUR,again,,DUPLICATE,the same referenceId as line 2 (reconciled there): the books list this payment twice\r\n` +
        `${b},disbursement.transfer,SUCCESSFUL,999999.99,EUR,big,SUCCESSFUL,MATCH,amount not compared: the provider's answer has none\r\n` +
        `${c},disbursement.transfer,,,,,SUCCESSFUL,MISSING_FROM_BOOKS,"sent by the SDK (batch payroll-nov, key c, recorded SUCCESSFUL), not in the books"\r\n`,
    );
  });

  it('exit 3 when the store of --from-store cannot be reached: nothing looked up, no report', async () => {
    const file = await books(
      'nostore.csv',
      `referenceId,operation\n${randomUUID()},disbursement.transfer\n`,
    );
    const before = sim.requests.length;
    const [redis, postgres] = await Promise.all([
      runCli(['reconcile', file, '--from-store', 'redis://127.0.0.1:9'], env()),
      runCli(
        ['reconcile', file, '--from-store', 'postgres://app:s3cret-pw@127.0.0.1:9/shop'],
        env(),
      ),
    ]);
    expect(redis.code, redis.stderr).toBe(3);
    expect(redis.stderr).toContain('--from-store redis://127.0.0.1:9: cannot connect');
    expect(postgres.code, postgres.stderr).toBe(3);
    expect(postgres.stderr).toContain(
      '--from-store postgres://app:***@127.0.0.1:9/shop: cannot list what it holds',
    );
    expectNoneOf(postgres, ['s3cret-pw']);
    expect(since(before).lookups).toBe(0);
    expect(existsSync(join(dir, 'nostore.report.csv'))).toBe(false);
  });
});
