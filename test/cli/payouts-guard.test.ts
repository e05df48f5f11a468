import { chmod, lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rowPrint } from '../../src/cli/payouts/row-prints';
import { runCli, useLoopbackSimulator } from './support';

// The payouts repeat guard (docs/batches.md, "Paying a day twice") as child processes
// against a loopback simulator: one party however its id is spelled, a repeat however
// many new rows pad it, and its ledger written as the results file is.
const { sim, env } = useLoopbackSimulator({ settleMs: 0 });

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-guard-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function csv(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

function payouts(file: string, batch: string, more: string[] = []) {
  const args = ['payouts', file, '--batch', batch, '--state-dir', join(dir, 'state'), ...more];
  return runCli(args, env());
}

const transfersPosted = () =>
  sim.requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
  ).length;

/** A payee who succeeds (ends in 999, as 46733123999). */
const payee = (n: number) => `233${String(n).padStart(6, '0')}999`;

describe('the payouts repeat guard', { timeout: 120_000 }, () => {
  it('an e-mail or party-code payee in another letter case is the same payee: refused', async () => {
    const code = '3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1a2c3d';
    const morning = await csv('morning.csv', [
      'key,partyIdType,partyId,amount,currency',
      'm-1,EMAIL,Anna.Berg@Shop.example,15,EUR',
      `m-2,PARTY_CODE,${code.toUpperCase()},20,EUR`,
    ]);
    const paid = await payouts(morning, 'morning');
    expect(paid.code, paid.stderr).toBe(0);
    expect(transfersPosted()).toBeGreaterThanOrEqual(2);
    const before = transfersPosted();
    const afternoon = await csv('afternoon.csv', [
      'key,partyIdType,partyId,amount,currency',
      'a-1,EMAIL,anna.berg@shop.example,15.00,EUR',
      `a-2,PARTY_CODE,${code},20,EUR`,
    ]);
    const again = await payouts(afternoon, 'afternoon');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('2 of its 2 rows');
    expect(again.stderr).toContain('batch "morning"');
    expect(transfersPosted()).toBe(before); // 15 EUR not paid twice
  });

  it('an MSISDN is one payee however it is written (+, 00, spaces, dashes)', () => {
    const print = (partyId: string) =>
      rowPrint('a-secret-of-16-chars', 'payee', { partyIdType: 'MSISDN', partyId }, '10', 'EUR');
    const canonical = print('46733123999');
    for (const written of ['+46733123999', '0046733123999', '+46 733-123 999', ' 46733123999 ']) {
      expect(print(written), written).toBe(canonical);
    }
    expect(print('46733123998')).not.toBe(canonical);
  });

  it('a repeat padded with new rows is still a repeat: every repeated row counts', async () => {
    const header = 'key,msisdn,amount,currency';
    const paidRows = Array.from({ length: 10 }, (_, i) => `d-${i},${payee(100 + i)},${i + 1},EUR`);
    const first = await csv('day.csv', [header, ...paidRows]);
    expect((await payouts(first, 'day')).code).toBe(0);
    // 4 of those 10 payments, re-exported under new keys among 20 new rows.
    const padded = await csv('padded.csv', [
      header,
      ...Array.from({ length: 20 }, (_, i) => `n-${i},${payee(300 + i)},7.25,EUR`),
      ...paidRows.slice(0, 4).map((row) => row.replace(/^d-/, 'again-')),
    ]);
    const before = transfersPosted();
    const refused = await payouts(padded, 'day-extra');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('4 of its 24 rows');
    expect(refused.stderr).toContain('batch "day"');
    expect(transfersPosted()).toBe(before);
    const dry = await payouts(padded, 'day-extra', ['--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toContain('REFUSED: ');
    // New rows only: no repeat.
    const fresh = await csv('fresh.csv', [header, `f-1,${payee(900)},7.25,EUR`]);
    expect((await payouts(fresh, 'day-fresh')).code).toBe(0);
  });

  it.skipIf(process.platform !== 'linux')(
    'its ledger does not follow a symlink planted at its name: replaced, the target untouched',
    async () => {
      const file = await csv('one.csv', ['key,msisdn,amount,currency', `k-1,${payee(1)},10,EUR`]);
      expect((await payouts(file, 'ledger-1')).code).toBe(0);
      const ledgers = join(dir, 'state', 'payouts');
      const [name] = (await readdir(ledgers)).filter((n) => n.endsWith('.jsonl'));
      const ledger = join(ledgers, name ?? '');
      const firstRun = await readFile(ledger, 'utf8');
      const victim = join(dir, 'victim.txt');
      await writeFile(victim, 'not the ledger\n');
      await chmod(victim, 0o600);
      await rm(ledger);
      await symlink(victim, ledger);

      const run = await payouts(file, 'ledger-1'); // continues the batch: nothing sent
      expect(run.code, run.stderr).toBe(0);
      expect(await readFile(victim, 'utf8')).toBe('not the ledger\n');
      const written = await lstat(ledger);
      expect(written.isFile()).toBe(true);
      expect(written.mode & 0o777).toBe(0o600);
      const lines = (await readFile(ledger, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(1); // the symlink's target was not read as the ledger
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ batch: 'ledger-1', rows: 1 });
      expect(firstRun).toContain('"batch":"ledger-1"');
    },
  );
});
