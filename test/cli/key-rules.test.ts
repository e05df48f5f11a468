import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, useLoopbackSimulator } from './support';

// DESIGN 9.2 in `payouts`: the CSV's key column follows the library's key rules (at most
// 200 characters, well-formed, no control characters); a row that breaks one is REJECTED
// as any bad row is (its line and the column `key` named), nothing recorded or sent for
// it, and the other rows are paid.
const { sim, env } = useLoopbackSimulator();
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-cli-keys-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const posts = () => sim.requests.filter((r) => r.method === 'POST' && r.path.includes('/transfer'));

describe('payouts: the key column', { timeout: 60_000 }, () => {
  it.each([
    ['201 characters', 'k'.repeat(201), /at most 200 characters \(it has 201\)/],
    ['a C1 control character', 'emp\u00851', /control characters \(it holds U\+0085/],
    ['an escape sequence', 'emp\u001b[2J', /control characters \(it holds U\+001B/],
  ])('a key of %s: the line and column named, nothing sent', async (name, key, message) => {
    const file = join(dir, `${name.replaceAll(' ', '-')}.csv`);
    await writeFile(
      file,
      `key,msisdn,amount,currency\r\nemp-1,46733123999,1,EUR\r\n${key},46733123999,2,EUR\r\n`,
    );
    const state = join(dir, `state-${name.replaceAll(' ', '-')}`);
    const run = await runCli(['payouts', file, '--batch', 'keys', '--state-dir', state], env());

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/line 3/);
    expect(run.stdout).toMatch(/column "key"/);
    expect(run.stdout).toMatch(message);
    const results = await readFile(file.replace(/\.csv$/, '.results.csv'), 'utf8');
    expect(results.split('\r\n')[2]).toMatch(/,REJECTED,/);
    // Only the good row was sent; nothing was recorded for the bad one.
    expect(posts().map((p) => (p.body as { amount?: string }).amount)).toEqual(['1']);
    const batches = join(state, 'batches');
    for (const name of await readdir(batches)) {
      expect(await readFile(join(batches, name), 'utf8')).not.toContain('"type":"intent","key":"k');
    }
    sim.reset();
  });
});
