import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, useLoopbackSimulator } from './support';

// `payouts` sends each row's `<batch id>/<key>` only when set up for the simulator: a
// plain-http loopback base URL, unless MOMO_SIMULATOR_TAGS says otherwise. Whatever the
// server answers (this simulator marks every answer X-Momo-Simulator) changes nothing.
const { sim, env } = useLoopbackSimulator();
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-cli-tags-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function pay(batch: string, extra: Record<string, string>) {
  const file = join(dir, `${batch}.csv`);
  await writeFile(file, 'key,msisdn,amount,currency\r\nemp-1,46733123999,1,EUR\r\n');
  const before = sim.requests.length;
  // The same row under each batch: not a repeat to guard against here.
  const args = [
    'payouts',
    file,
    '--batch',
    batch,
    '--state-dir',
    join(dir, 'state'),
    '--allow-repeat',
  ];
  const run = await runCli(args, { ...env(), ...extra });
  expect(run.code, run.stderr).toBe(0);
  return sim.requests.slice(before).filter((r) => r.path === '/disbursement/v1_0/transfer');
}

describe('payouts: caller tags to the simulator', { timeout: 60_000 }, () => {
  it('on loopback http: each row tagged <batch id>/<key>', async () => {
    const [post] = await pay('tagged', {});
    expect(post?.headers['x-momo-simulator-tag']).toBe('tagged%2Femp-1');
  });

  it('MOMO_SIMULATOR_TAGS=0: no tag, though every answer says X-Momo-Simulator', async () => {
    const posts = await pay('untagged', { MOMO_SIMULATOR_TAGS: '0' });
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers).not.toHaveProperty('x-momo-simulator-tag');
  });

  it('MOMO_SIMULATOR_TAGS=yes: a usage error, nothing sent', async () => {
    const before = sim.requests.length;
    const run = await runCli(['payouts', join(dir, 'tagged.csv'), '--batch', 'x'], {
      ...env(),
      MOMO_SIMULATOR_TAGS: 'yes',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('MOMO_SIMULATOR_TAGS must be 1 or 0');
    expect(sim.requests.length).toBe(before);
  });
});
