import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from './support';

// `payouts` run again after its state folder was deleted (or on another machine): every
// row is sent again under its derived reference id, and a 409 proves only that something
// was sent under it. The provider's transaction is compared with the row (DESIGN 9.1).
const { sim, env } = useLoopbackSimulator();
const SUCCEEDS = '46733123999';
const ALSO_SUCCEEDS = '46733123998';
const REJECTED = '46733123451'; // FAILED APPROVAL_REJECTED

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-lost-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function csv(lines: string[]): Promise<string> {
  const file = join(dir, 'payroll.csv');
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

function payouts(file: string, batch: string) {
  return runCli(['payouts', file, '--batch', batch, '--state-dir', join(dir, 'state')], env());
}

const loseState = () => rm(join(dir, 'state'), { recursive: true, force: true });

async function results(): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(join(dir, 'payroll.results.csv'))) {
    rows.push(record.values);
  }
  return rows;
}

/** The status the provider holds under a reference id, with its amount and payee. */
function held(referenceId: string | undefined) {
  const tx = sim.transactions.find((t) => t.referenceId === referenceId);
  return tx && { status: tx.status, amount: tx.amount, payee: tx.payee?.partyId };
}

describe('payouts after its state was lost', { timeout: 60_000 }, () => {
  it('the same rows (an amount written "4.00" for "4"): exit 0, each SUCCESSFUL or FAILED as the provider holds it', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `s1,${SUCCEEDS},4,EUR`,
      `s2,${REJECTED},5,EUR`,
    ]);
    expect((await payouts(file, 'same-rows')).code).toBe(0);
    const before = sim.transactions.length;
    await loseState();
    await csv(['key,msisdn,amount,currency', `s1,${SUCCEEDS},4.00,EUR`, `s2,${REJECTED},5,EUR`]);
    const again = await payouts(file, 'same-rows');
    expect(again.code, again.stderr).toBe(0);
    expect((await results()).map((r) => [r.key, r.status, r.reason])).toEqual([
      ['s1', 'SUCCESSFUL', ''],
      ['s2', 'FAILED', 'APPROVAL_REJECTED'],
    ]);
    expect(sim.transactions.length).toBe(before);
  });

  it('a paid row whose amount or payee was edited: exit 2 naming the rows, REJECTED with the field and both values, never SUCCESSFUL', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `e1,${SUCCEEDS},100,EUR`,
      `e2,${SUCCEEDS},20,EUR`,
      `e3,${SUCCEEDS},30,EUR`,
    ]);
    expect((await payouts(file, 'edited')).code).toBe(0);
    const balance = await sim.client().disbursement.getBalance();
    const before = sim.transactions.length;

    await loseState();
    await csv([
      'key,msisdn,amount,currency',
      `e1,${SUCCEEDS},150,EUR`,
      `e2,${ALSO_SUCCEEDS},20,EUR`,
      `e3,${SUCCEEDS},30,EUR`,
    ]);
    const run = await payouts(file, 'edited');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain('3 rows: 1 SUCCESSFUL, 0 FAILED, 2 REJECTED');
    expect(run.stderr).toContain('2 rows disagree with what the provider holds');
    expect(run.stderr).toContain(
      'key "e1": amount: the provider holds 100 for this reference id, the item says 150; not sent',
    );
    expect(run.stderr).toContain(
      `key "e2": payee: the provider holds MSISDN ${SUCCEEDS} for this reference id, the item says MSISDN ${ALSO_SUCCEEDS}; not sent`,
    );
    expect(run.stderr).not.toContain('key "e3"');
    const rows = await results();
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['e1', 'REJECTED'],
      ['e2', 'REJECTED'],
      ['e3', 'SUCCESSFUL'],
    ]);
    expect(rows[0]?.reason).toMatch(/^amount: the provider holds 100 .* says 150; not sent$/);
    expect(sim.transactions.length).toBe(before); // nothing sent
    expect(await sim.client().disbursement.getBalance()).toEqual(balance);
  });

  it('a new file under a reused --batch: exit 2 naming the rows; no row SUCCESSFUL that the provider did not pay as it says', async () => {
    const file = await csv([
      'key,msisdn,amount,currency',
      `1,${SUCCEEDS},10,EUR`,
      `2,${SUCCEEDS},10,EUR`,
      `3,${REJECTED},10,EUR`,
    ]);
    expect((await payouts(file, 'monthly')).code).toBe(0);
    await loseState();
    // Next month's file, the same batch id, keys counted from 1 again.
    await csv([
      'key,msisdn,amount,currency',
      `1,${ALSO_SUCCEEDS},25,EUR`,
      `2,${SUCCEEDS},12.5,EUR`,
      `3,${SUCCEEDS},10,EUR`,
      `4,${SUCCEEDS},8,EUR`,
    ]);
    const run = await payouts(file, 'monthly');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('3 rows disagree with what the provider holds');
    for (const key of ['1', '2', '3']) expect(run.stderr).toContain(`key "${key}": `);
    expect(run.stderr).toContain(
      `key "3": payee: the provider holds MSISDN ${REJECTED} for this reference id, the item says MSISDN ${SUCCEEDS}; not sent`,
    );
    const rows = await results();
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['1', 'REJECTED'],
      ['2', 'REJECTED'],
      ['3', 'REJECTED'],
      ['4', 'SUCCESSFUL'],
    ]);
    for (const row of rows.filter((r) => r.status === 'SUCCESSFUL')) {
      expect(held(row.referenceId)).toEqual({
        status: 'SUCCESSFUL',
        amount: row.amount,
        payee: row.msisdn,
      });
    }
  });
});
