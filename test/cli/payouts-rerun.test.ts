import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  NO_FUNDS,
  PENDING_FOREVER,
  REJECTED,
  results,
  SUCCEEDS,
  UUID_V4,
  usePayouts,
} from './payouts-support';

// `payouts` run again: after a timeout, after its state folder went, after a crash mid-write.
const { sim, dir, csv, payouts, transfersPosted } = usePayouts();

describe('momo-partner-sdk payouts', { timeout: 60_000 }, () => {
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
    const [a, b] = await results(join(dir(), 'payroll.results.csv'));
    expect(a).toMatchObject({ status: 'SUCCESSFUL' });
    expect(b).toMatchObject({ status: 'UNRESOLVED', reason: 'WAIT_TIMEOUT' });
    expect(b?.referenceId).toMatch(UUID_V4);

    sim.settle(b?.referenceId ?? '', 'SUCCESSFUL');
    const second = await payouts(file, 'rerun-1');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^payouts: 2\/2 rows ended \(successful 2, failed 0, pending 0/m);
    const after = await results(join(dir(), 'payroll.results.csv'));
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
    const rows = await results(join(dir(), 'payroll.results.csv'));
    const balance = await sim.client().disbursement.getBalance();

    await rm(join(dir(), 'state'), { recursive: true });
    const before = transfersPosted();
    const second = await payouts(file, 'lost-state');
    expect(second.code, second.stderr).toBe(0);
    expect(transfersPosted() - before).toBe(3); // each sent again under its id: 409, looked up
    expect(await results(join(dir(), 'payroll.results.csv'))).toEqual(rows);
    expect(await sim.client().disbursement.getBalance()).toEqual(balance);
  });

  it('a run killed mid-writing left a temporary file beside the results: the next run removes it', async () => {
    const file = await csv(['key,msisdn,amount,currency', `t1,${SUCCEEDS},1,EUR`]);
    const dead = join(dir(), 'payroll.results.csv.4194999.tmp'); // above any pid_max: gone
    const live = join(dir(), `payroll.results.csv.${process.pid}.tmp`); // a running process's
    await Promise.all([writeFile(dead, 'key,msisdn\r\nt1,'), writeFile(live, '')]);
    const run = await payouts(file, 'leftovers');
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(dir())).sort()).toEqual([
      'payroll.csv',
      'payroll.results.csv',
      `payroll.results.csv.${process.pid}.tmp`,
      'state',
    ]);
  });
});
