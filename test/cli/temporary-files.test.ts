import { randomUUID } from 'node:crypto';
import { chmod, lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, useLoopbackSimulator } from './support';

// A local user who can write the output folder (a shared drop folder) plants symlinks at
// every name a run could pick for its temporary file, pointing at a file of the user who
// runs the CLI. The run must neither follow them nor touch that file: its temporary file
// is new (O_EXCL, O_NOFOLLOW), private (0600) and under a name nobody can predict.
const { env } = useLoopbackSimulator();
const linux = process.platform === 'linux';
const VICTIM_TEXT = 'root only: do not overwrite\n';

let dir = '';
let victim = '';
beforeAll(async () => {
  await runCli(['--version']); // the CLI bundle is built before any pid is predicted
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-temporary-'));
  victim = join(dir, 'victim.txt');
  await writeFile(victim, VICTIM_TEXT);
  await chmod(victim, 0o600);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/**
 * What the attacker does: a symlink to the victim at `<out>.tmp` and at `<out>.<pid>.tmp`
 * for the next 4,000 process ids (Linux hands them out in order; a loaded 2-core machine
 * starts far fewer than that in the instant between planting and spawning). Returns them.
 */
async function plantSymlinks(out: string): Promise<Set<number>> {
  const last = Number(await readFile('/proc/sys/kernel/ns_last_pid', 'utf8'));
  const max = Number(await readFile('/proc/sys/kernel/pid_max', 'utf8'));
  const pids = new Set<number>();
  for (let i = 1; pids.size < 4000; i++) {
    const pid = (last + i) % max;
    if (pid > 300) pids.add(pid); // Linux restarts above 300 when it wraps
  }
  await symlink(victim, `${out}.tmp`);
  await Promise.all([...pids].map((pid) => symlink(victim, `${out}.${pid}.tmp`)));
  return pids;
}

/** The victim is as it was, and `out` is a file of its own, readable by its owner only. */
async function expectUntouched(out: string): Promise<void> {
  expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  expect((await stat(victim)).mode & 0o777).toBe(0o600);
  const written = await lstat(out);
  expect(written.isFile()).toBe(true);
  expect(written.mode & 0o777).toBe(0o600);
}

describe.skipIf(!linux)('temporary files in a shared output folder', { timeout: 60_000 }, () => {
  it('payouts: a planted symlink at every predictable name is not followed', async () => {
    const file = join(dir, 'payroll.csv');
    await writeFile(file, 'key,msisdn,amount,currency\r\nemp-1,46733123999,10,EUR\r\n');
    const out = join(dir, 'payroll.results.csv');
    const pids = await plantSymlinks(out);
    const args = ['payouts', file, '--batch', 'drop-1', '--state-dir', join(dir, 'state')];
    const { child, exited } = await spawnCli(args, env());
    const run = await exited;

    expect(run.code, run.stderr).toBe(0);
    expect(pids.has(child.pid ?? -1)).toBe(true); // its own pid's name was planted too
    await expectUntouched(out);
    expect(await readFile(out, 'utf8')).toContain('emp-1,46733123999,10,EUR,');
    expect((await lstat(`${out}.${child.pid}.tmp`)).isSymbolicLink()).toBe(true); // left alone
  });

  it('reconcile: a planted symlink at every predictable name is not followed', async () => {
    const file = join(dir, 'books.csv');
    await writeFile(file, `referenceId,operation\r\n${randomUUID()},disbursement.transfer\r\n`);
    const out = join(dir, 'books.report.csv');
    const pids = await plantSymlinks(out);
    const { child, exited } = await spawnCli(['reconcile', file], env());
    const run = await exited;

    expect(run.code, run.stderr).toBe(0);
    expect(pids.has(child.pid ?? -1)).toBe(true);
    await expectUntouched(out);
    expect(await readFile(out, 'utf8')).toContain('NOT_FOUND');
  });
});
