import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from './support';

// `payouts --dry-run` as the operator uses it before paying: every bad row on screen, and
// with --out a file of every row that the real run never takes for a record of a send.
const { sim, env } = useLoopbackSimulator({ settleMs: 0 });

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-dry-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const HEADER = 'key,msisdn,amount,currency';
/** A payee who succeeds (ends in 999, as 46733123999). */
const payee = (n: number) => `233${String(n).padStart(6, '0')}999`;

async function csv(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${[HEADER, ...lines].join('\r\n')}\r\n`);
  return file;
}

function payouts(file: string, batch: string, more: string[] = []) {
  const args = ['payouts', file, '--batch', batch, '--state-dir', join(dir, 'state'), ...more];
  return runCli(args, env());
}

async function rowsOf(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(file)) rows.push(record.values);
  return rows;
}

const created = () => sim.requests.filter((r) => r.method === 'POST').length;

describe('payouts --dry-run', { timeout: 120_000 }, () => {
  it('lists every bad row (50 of them), on screen and in --json', async () => {
    const rows = Array.from({ length: 60 }, (_, i) =>
      i < 50 ? `k${i},${payee(i)},-${i + 1},EUR` : `k${i},${payee(i)},${i},EUR`,
    );
    const file = await csv('fifty.csv', rows);
    const before = created();
    const dry = await payouts(file, 'fifty', ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const listed = dry.stdout.split('\n').filter((line) => line.startsWith('  REJECTED line '));
    expect(listed).toHaveLength(50);
    expect(listed[49]).toContain('line 51: column "amount" ("-50")');
    expect(dry.stdout).not.toContain('more REJECTED rows');
    const json = JSON.parse((await payouts(file, 'fifty', ['--dry-run', '--json'])).stdout);
    expect(json).toMatchObject({ rows: 60, rejected: 50, toSend: 10 });
    expect(json.problems).toHaveLength(50);
    expect(created()).toBe(before);
  });

  it('--out: every row there (REJECTED with why, the rest NOT_SENT); the real run pays a row fixed since, and the dry run never writes over its results', async () => {
    const out = join(dir, 'checked.csv');
    const file = await csv('pay.csv', [`p1,${payee(1)},10,EUR`, `p2,${payee(2)},-5,EUR`]);
    const dry = await payouts(file, 'pay', ['--dry-run', '--out', out]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`every row: ${out}`);
    const dryRows = await rowsOf(out);
    expect(dryRows.map((r) => [r.key, r.status, r.referenceId])).toEqual([
      ['p1', 'NOT_SENT', ''],
      ['p2', 'REJECTED', ''],
    ]);
    expect(dryRows[0]?.reason).toBe('dry run: nothing was sent');
    expect(dryRows[1]?.reason).toMatch(/^line 3: column "amount" \("-5"\): must be a positive/);
    await expect(readFile(join(dir, 'pay.dry-run.csv'))).rejects.toThrow();
    await expect(readFile(join(dir, 'pay.results.csv'))).rejects.toThrow();

    // p2 fixed; the real run writes its results to the same --out: both paid.
    await csv('pay.csv', [`p1,${payee(1)},10,EUR`, `p2,${payee(2)},5,EUR`]);
    const run = await payouts(file, 'pay', ['--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const paid = await rowsOf(out);
    expect(paid.map((r) => [r.key, r.status])).toEqual([
      ['p1', 'SUCCESSFUL'],
      ['p2', 'SUCCESSFUL'],
    ]);

    // A dry run pointed at those results is refused: they are the record of what was paid.
    const again = await payouts(file, 'pay', ['--dry-run', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${out} holds the results of a run`);
    expect(await rowsOf(out)).toEqual(paid);
  });

  it("the real run never reads a dry run's row as what was sent under its key", async () => {
    const checked = join(dir, 'checked.csv');
    const file = await csv('edit.csv', [`e1,${payee(7)},12,EUR`]);
    expect((await payouts(file, 'edit', ['--dry-run', '--out', checked])).code).toBe(0);
    await csv('edit.csv', [`e1,${payee(7)},10,EUR`]);
    expect((await payouts(file, 'edit')).code).toBe(0); // paid 10, results beside the file
    // Edited again, and run with the dry run's file as --out: the store says 10 was sent.
    await csv('edit.csv', [`e1,${payee(7)},15,EUR`]);
    const refused = await payouts(file, 'edit', ['--out', checked]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toContain('was "12"'); // the dry run's value, never sent
    expect(refused.stderr).toContain('differs from what batch edit sent under its key');
  });
});
