import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useReconcile } from './reconcile-support';
import { expectNoneOf, runCli } from './support';

// When `reconcile` stops: bad input or flags (exit 2), refused credentials or a service or
// store it cannot reach (exit 3); nothing looked up, no report written.
const { sim, env, dir, books, since } = useReconcile();
const { subscriptionKey, apiUser } = sim.credentials;

describe('momo-partner-sdk reconcile', { timeout: 60_000 }, () => {
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
      runCli(['reconcile', join(dir(), 'absent.csv')], env()),
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
    expect(absent.stderr).toContain(`cannot read ${join(dir(), 'absent.csv')}`);
    expect(noFile.stderr).toContain('Missing <file.csv>.');
    expect(since(before)).toEqual({ all: 0, lookups: 0 });
    for (const name of ['unterminated', 'missing', 'bad-rows']) {
      expect(existsSync(join(dir(), `${name}.report.csv`)), name).toBe(false);
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
    expect(existsSync(join(dir(), 'refused.report.csv'))).toBe(false);
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
    expect(existsSync(join(dir(), 'unreachable.report.csv'))).toBe(false);
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
    expect(existsSync(join(dir(), 'nostore.report.csv'))).toBe(false);
  });
});
