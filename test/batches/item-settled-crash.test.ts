import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Batches, fileBatchStore } from 'momo-partner-sdk/batches';
import { afterAll, expect, it } from 'vitest';
import type { SettledRunnerInput } from '../support/workers/settled-runner';
import { PAYEE, row, useSimulator } from './harness';

const h = useSimulator();
const WORKER = fileURLToPath(new URL('../support/workers/settled-runner.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'momo-settled-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('onItemSettled on a file store: a process SIGKILLed inside the hook, the next run runs it for every item it owed', async () => {
  const items = [row('r1', PAYEE.ok, '10'), row('r2', PAYEE.rejected, '5'), row('r3', PAYEE.ok)];
  const input: SettledRunnerInput = {
    simulator: { ...h.sim.credentials, baseUrl: h.server.url },
    dir,
    batchId: 'payroll',
    items,
  };
  const child = fork(WORKER, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const settling = new Set<string>();
  // Every item's outcome is recorded (marked owed) and its hook entered: then the kill.
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { type: string; key: string }) => {
      settling.add(m.key);
      if (settling.size === items.length) resolve();
    });
    void exited.then(() => reject(new Error('the worker exited before its hooks ran')));
    child.send(input);
  });
  child.kill('SIGKILL');
  await exited;
  const posts = h.transferPosts().length;
  expect(posts).toBe(3);

  const booked: string[] = [];
  const report = await new Batches(h.client()).run(items, {
    id: 'payroll',
    store: fileBatchStore(dir), // the next process, the same folder
    onItemSettled: (item) => void booked.push(`${item.key} ${item.status}`),
  });
  expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'FAILED', 'SUCCESSFUL']);
  expect(booked.sort()).toEqual(['r1 SUCCESSFUL', 'r2 FAILED', 'r3 SUCCESSFUL']);
  expect(h.transferPosts()).toHaveLength(posts); // looked up, nothing sent again
}, 60_000);
