import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BatchHandle, isValidationError } from 'momo-partner-sdk';
import { fileBatchStore } from 'momo-partner-sdk/batches';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-file-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const intent = (key: string) => ({
  key,
  operation: 'disbursement.transfer',
  fingerprint: `print-${key}`,
  referenceId: '6b0f8c2a-1d3e-4f5a-8b7c-9d0e1f2a3b4c',
});

async function record(batch: BatchHandle, key: string) {
  const token = (await batch.claim(key, 'me', 60_000)) as string;
  await batch.recordIntent(intent(key), token);
  return token;
}

async function keys(batch: BatchHandle) {
  const out: string[] = [];
  for await (const r of batch.records()) out.push(r.key);
  return out;
}

describe('fileBatchStore', () => {
  it('has the intent on disk by the time recordIntent resolves (one JSON line per record, after the line naming the batch)', async () => {
    const batch = await fileBatchStore(dir).open('payroll');
    await record(batch, 'row-1');
    const [file] = readdirSync(dir);
    const lines = readFileSync(join(dir, file as string), 'utf8').split('\n');
    expect(JSON.parse(lines[0] as string)).toEqual({ type: 'batch', id: 'payroll' });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ type: 'intent', ...intent('row-1') });
    expect(lines[2]).toBe('');
  });

  it('ignores a torn last line after a crash, cuts it off, and appends on a line of its own', async () => {
    const store = fileBatchStore(dir);
    const batch = await store.open('payroll');
    await record(batch, 'row-1');
    await batch.close();
    const file = join(dir, readdirSync(dir)[0] as string);
    appendFileSync(file, '{"type":"intent","key":"row-2","operat'); // the crash, mid-write

    const after = await fileBatchStore(dir).open('payroll');
    expect(await keys(after)).toEqual(['row-1']);
    await record(after, 'row-3');
    await after.close();
    const again = await fileBatchStore(dir).open('payroll');
    expect(await keys(again)).toEqual(['row-1', 'row-3']);
  });

  it('refuses a file whose complete line is not a record, naming the line', async () => {
    const store = fileBatchStore(dir);
    const batch = await store.open('payroll');
    await record(batch, 'row-1');
    await batch.close();
    const file = join(dir, readdirSync(dir)[0] as string);
    writeFileSync(file, `${readFileSync(file, 'utf8')}not json\n${readFileSync(file, 'utf8')}`);
    await expect(fileBatchStore(dir).open('payroll')).rejects.toThrow(/line 3/);
  });

  it('keeps every batch file inside its folder, whatever the id', async () => {
    const store = fileBatchStore(join(dir, 'state'));
    for (const id of ['../escape', '/etc/passwd', 'a\\..\\b', '..', 'per%2Fcent']) {
      await record(await store.open(id), 'k');
    }
    await expect(store.open('nul\u0000byte')).rejects.toMatchObject({ field: 'id' }); // DESIGN 9.2
    expect(readdirSync(dir)).toEqual(['state']);
    const names = readdirSync(join(dir, 'state'));
    expect(names).toHaveLength(5);
    for (const name of names) expect(name).toMatch(/^batch-[A-Za-z0-9_.%-]+\.jsonl$/);
  });

  it('refuses a missing folder or batch id with a ValidationError naming it', async () => {
    const bad = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isValidationError(error) ? error.field : 'other';
      }
      return 'none';
    };
    expect(bad(() => fileBatchStore(''))).toBe('dir');
    await expect(fileBatchStore(dir).open('')).rejects.toMatchObject({ field: 'id' });
  });
});
