import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchHandle } from 'momo-partner-sdk';
import { fileBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// On a case-insensitive file system (macOS, Windows) `--batch Payroll` and `--batch
// payroll` must not share one state file: a batch's file name holds a hash of its exact
// id. Folders written by the previous release (`batch-<percent-encoded id>.jsonl`) are
// still read, each file by the batch whose exact name it bears.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-state-names-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const intent = (key: string) => ({
  key,
  operation: 'disbursement.transfer',
  fingerprint: `print-${key}`,
  referenceId: '6b0f8c2a-1d3e-4f5a-8b7c-9d0e1f2a3b4c',
});

async function record(batch: BatchHandle, key: string): Promise<void> {
  const token = (await batch.claim(key, 'me', 60_000)) as string;
  await batch.recordIntent(intent(key), token);
  await batch.release(key, token);
}

async function keys(batch: BatchHandle): Promise<string[]> {
  const out: string[] = [];
  for await (const r of batch.records()) out.push(r.key);
  return out;
}

describe('fileBatchStore file names', () => {
  it('ids that differ only by case get names that differ in more than case', async () => {
    const ids = ['Payroll', 'payroll', 'PAYROLL', 'payroll-2026-11', 'Payroll-2026-11'];
    const store = fileBatchStore(dir);
    for (const id of ids) await record(await store.open(id), `key-of-${id}`);

    const names = readdirSync(dir);
    expect(names).toHaveLength(ids.length);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(ids.length);
    for (const name of names) expect(name).toMatch(/^batch-[a-z0-9_.-]{1,40}-[0-9a-f]{32}\.jsonl$/);
    expect(names.filter((name) => name.startsWith('batch-payroll-2026-11-'))).toHaveLength(2);
    const reopened = fileBatchStore(dir); // another process
    for (const id of ids) expect(await keys(await reopened.open(id))).toEqual([`key-of-${id}`]);
  });

  it('reads a batch file the previous release wrote, in place, and goes on writing to it', async () => {
    await record(await fileBatchStore(dir).open('Payroll 2026/11'), 'emp-1');
    const [written] = readdirSync(dir);
    const legacy = 'batch-Payroll%202026%2F11.jsonl'; // the previous release's name for it
    renameSync(join(dir, written as string), join(dir, legacy));

    const batch = await fileBatchStore(dir).open('Payroll 2026/11');
    expect(await keys(batch)).toEqual(['emp-1']);
    await record(batch, 'emp-2');
    expect(readdirSync(dir)).toEqual([legacy]); // not renamed: the previous release still finds it
    expect(readFileSync(join(dir, legacy), 'utf8')).toContain('"emp-2"');
  });

  it("a previous release's file is taken only by the batch of its exact name", async () => {
    await record(await fileBatchStore(dir).open('payroll'), 'lower-case-row');
    const [written] = readdirSync(dir);
    renameSync(join(dir, written as string), join(dir, 'batch-payroll.jsonl'));

    const store = fileBatchStore(dir);
    expect(await keys(await store.open('Payroll'))).toEqual([]);
    expect(await keys(await store.open('payroll'))).toEqual(['lower-case-row']);
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
