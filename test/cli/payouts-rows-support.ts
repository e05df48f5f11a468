import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from './support';

export const NO_HOLDER = '46733123456'; // not an active account holder
const TRANSFER = '/disbursement/v1_0/transfer';

/** A payee who succeeds: not a magic number in any format (they end in 999, as 46733123999). */
export const payee = (n: number) => `233${String(n).padStart(6, '0')}999`;

/**
 * `payouts` as child processes against a loopback simulator that settles at once and has
 * no caps: the run's length is the machine's, not the provider's. One folder per test file
 * (`dir()`), one state folder per test.
 */
export function usePayoutsRows() {
  const { sim, env } = useLoopbackSimulator({ settleMs: 0, initialBalance: '100000000.00' });
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-payouts-rows-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Creating calls the simulator received (transfers). */
  const transfersPosted = () =>
    sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith(TRANSFER)).length;

  /** Each test's own state folder: batches of another test are not its repeats. */
  let state = '';
  beforeEach((context) => {
    state = join(dir, `state-${context.task.id}`);
  });

  /** `payouts` with the test's state folder, many rows in flight. */
  function payouts(file: string, batch: string, more: string[] = [], vars = {}) {
    const args = ['payouts', file, '--batch', batch, '--state-dir', state];
    return runCli([...args, '--concurrency', '64', ...more], { ...env(), ...vars }, 240_000);
  }

  return { sim, dir: () => dir, payouts, transfersPosted };
}

export async function rowsOf(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(file)) rows.push(record.values);
  return rows;
}
