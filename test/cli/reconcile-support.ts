import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { useLoopbackSimulator } from './support';

export const SUCCEEDS = '46733123999';
export const REJECTED = '46733123451';
export const PENDING_FOREVER = '46733123453';
export const transfer = (partyId: string) => ({
  amount: '3',
  currency: 'EUR',
  payee: { partyIdType: 'MSISDN' as const, partyId },
});

/**
 * `reconcile` as a child process against a loopback simulator: a books file in, a report
 * out, both in one folder per test file (`dir()`).
 */
export function useReconcile() {
  const { sim, env } = useLoopbackSimulator();
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

  return { sim, env, dir: () => dir, books, since };
}
