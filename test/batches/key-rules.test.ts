import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BatchStore, isValidationError } from 'momo-partner-sdk';
import { Batches, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { checkOutboxIntent } from 'momo-partner-sdk/outbox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from './harness';

// DESIGN 9.2: keys (batch items, outbox intents) and batch ids are at most 200
// characters, well-formed Unicode, without control characters. A key that breaks a rule
// is REJECTED naming `key` before the store reads or writes anything under it; a batch id
// is a ValidationError naming `id`, nothing opened or sent.
const h = useSimulator();
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-key-rules-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const MEGABYTE_KEY = `emp-${'x'.repeat(1024 * 1024)}`;
const BAD_KEYS: [string, RegExp][] = [
  ['x'.repeat(201), /^key: must be at most 200 characters \(it has 201\)$/],
  [MEGABYTE_KEY, /^key: must be at most 200 characters/],
  ['emp\u00001', /^key: must not hold control characters \(it holds U\+0000 at position 3\)$/],
  ['emp\u001b[2J', /control characters \(it holds U\+001B/],
  ['emp\u007f', /control characters \(it holds U\+007F/],
  ['emp\u0085', /control characters \(it holds U\+0085/], // C1: NEXT LINE
  ['emp-\ud800', /^key: must be well-formed Unicode/], // a lone high surrogate
  ['emp-\udc00', /^key: must be well-formed Unicode/], // a lone low surrogate
];

describe('key rules of a batch (memory and file stores)', () => {
  it.each([
    ['memoryBatchStore', () => memoryBatchStore()],
    ['fileBatchStore', () => fileBatchStore(dir)],
  ] as [string, () => BatchStore][])(
    '%s: every bad key REJECTED naming key, nothing of it written or sent; the rest paid',
    async (_, make) => {
      const items = [...BAD_KEYS.map(([key]) => row(key, PAYEE.ok)), row('emp-ok', PAYEE.ok)];
      const report = await new Batches(h.client()).run(items, { id: 'payroll', store: make() });

      BAD_KEYS.forEach(([, reason], i) => {
        expect(report.items[i]).toMatchObject({ status: 'REJECTED' });
        expect(report.items[i]?.reason).toMatch(reason);
        expect(report.items[i]?.referenceId).toBeUndefined();
      });
      expect(report.items.at(-1)?.status).toBe('SUCCESSFUL');
      expect(h.transferPosts()).toEqual([report.items.at(-1)?.referenceId]);
      const files = await readdir(dir);
      for (const file of files) {
        // The file store holds only the good row: no megabyte, no other bad key.
        expect((await stat(join(dir, file))).size).toBeLessThan(2_000);
        const text = await readFile(join(dir, file), 'utf8');
        expect(text).toContain('"emp-ok"');
        expect(text).not.toContain('emp-xxxx');
      }
    },
  );

  it('a well-formed key of 200 characters, emoji and non-Latin scripts included, is paid', async () => {
    const long = `${'ñ'.repeat(194)}-😀-日本`; // 😀 is two UTF-16 code units: 200 in all
    expect(long).toHaveLength(200);
    const report = await new Batches(h.client()).run([row(long, PAYEE.ok)], {
      id: 'x'.repeat(200),
      store: fileBatchStore(dir),
    });
    expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL']);
  });

  it('two batch ids differing only in a lone surrogate are refused: they can no longer share one record', async () => {
    const momo = h.client();
    const store = fileBatchStore(dir);
    for (const id of ['payroll-\ud800', 'payroll-\ud801', 'pay\u0000roll', 'pay\u0085roll']) {
      const error = await new Batches(momo)
        .run([row('emp-1', PAYEE.ok)], { id, store })
        .catch((e) => e);
      expect(isValidationError(error), String(error)).toBe(true);
      expect(error.issues.map((i: { path: string }) => i.path)).toEqual(['id']);
      const opened = await store.open(id).catch((e) => e);
      expect(isValidationError(opened)).toBe(true);
    }
    expect(await readdir(dir)).toEqual([]);
    expect(h.transferPosts()).toEqual([]);
  });

  it('two keys differing only in a lone surrogate are both REJECTED, not one record', async () => {
    const report = await new Batches(h.client()).run(
      [row('emp-\ud800', PAYEE.ok), row('emp-\ud801', PAYEE.ok)],
      {
        id: 'payroll',
        store: fileBatchStore(dir),
      },
    );
    expect(report.items.map((i) => i.status)).toEqual(['REJECTED', 'REJECTED']);
    expect(h.transferPosts()).toEqual([]);
  });

  it('an outbox intent with a bad key is a ValidationError naming key (checkOutboxIntent, every outbox store)', async () => {
    for (const [key, reason] of BAD_KEYS) {
      const intent = { key, operation: 'disbursement.transfer', body: row('b', PAYEE.ok).body };
      const error = await checkOutboxIntent(intent).catch((e) => e);
      expect(isValidationError(error)).toBe(true);
      expect(error.issues).toEqual([
        { path: 'key', message: expect.stringMatching(reason.source.replace('^key: ', '^')) },
      ]);
    }
  });
});
