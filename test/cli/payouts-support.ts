import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from './support';

export const SUCCEEDS = '46733123999';
export const REJECTED = '46733123451'; // FAILED APPROVAL_REJECTED
export const NO_FUNDS = '46733123455'; // FAILED NOT_ENOUGH_FUNDS
export const PENDING_FOREVER = '46733123453';
export const NO_HOLDER = '46733123456'; // not an active account holder
/** What the check says of an MSISDN that is not one (src/schemas/rules.ts). */
export const MSISDN_RULE =
  'must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999)';
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * `payouts` as a child process against a loopback simulator that enforces the provider's
 * caps, each test in a folder of its own (`dir()`, the state under it).
 */
export function usePayouts() {
  const { sim, env } = useLoopbackSimulator({
    limits: { lookupsPerSecond: 40, createsPerSecond: 40 },
  });
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

  /** Creating calls the simulator received (transfers), refused ones included. */
  const transfersPosted = () =>
    sim.requests.filter(
      (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
    ).length;

  return { sim, env, dir: () => dir, csv, payouts, transfersPosted };
}

export async function results(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(file)) rows.push(record.values);
  return rows;
}
