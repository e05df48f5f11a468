import { readFileSync } from 'node:fs';
import type { MomoClient } from 'momo-partner-sdk';
import { type ReconcileRecord, reconcile } from 'momo-partner-sdk/reconcile';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectSnippets } from '../support/snippets';
import { FOREVER_PENDING_PAYEE, PENDING_PAYEE, type Platform, platform, transfer } from './support';

// docs/reconcile.md's "Reconcile your books" recipe, run as written against the
// simulator: `momo` and `books` are what its prose says they are.
const recipe = collectSnippets(process.cwd()).find(
  (s) => s.where.startsWith('docs/reconcile.md') && s.heading === 'Reconcile your books',
);

type Recipe = (
  momo: MomoClient,
  reconcileBooks: typeof reconcile,
  books: AsyncIterable<ReconcileRecord>,
  console: Pick<Console, 'log'>,
  process: { stderr: { write(text: string): void } },
) => Promise<void>;

/** The recipe as the body of a function; its one import, `reconcile`, is handed in. */
function compile(code: string): Recipe {
  const imports = code.split('\n').filter((line) => line.startsWith('import '));
  expect(imports).toEqual(["import { reconcile } from 'momo-partner-sdk/reconcile';"]);
  const body = code
    .split('\n')
    .filter((line) => !line.startsWith('import '))
    .join('\n');
  const wrapped = `async function recipe(momo, reconcile, books, console, process) {\n${body}\n}`;
  const { outputText } = ts.transpileModule(wrapped, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return new Function(`${outputText}\nreturn recipe;`)() as Recipe;
}

let a: Platform;

beforeAll(async () => {
  a = await platform();
});

afterAll(async () => {
  await a.http.close();
});

describe('docs/reconcile.md', () => {
  it('the "Reconcile your books" recipe runs as written and prints what to update and look at', async () => {
    expect(recipe?.code).toContain('reconcile(momo, books');
    expect(readFileSync('docs/reconcile.md', 'utf8')).toContain('## Reconcile your books');
    const momo = a.client();
    const paid = await momo.disbursement.transfer(transfer('10'));
    await paid.wait();
    const paidToo = await momo.disbursement.transfer(transfer('10'));
    await paidToo.wait();
    const settled = await momo.disbursement.transfer(transfer('20', PENDING_PAYEE));
    a.sim.settle(settled.referenceId, 'FAILED');
    const pending = await momo.disbursement.transfer(transfer('30', FOREVER_PENDING_PAYEE));
    const unknown = crypto.randomUUID();
    async function* books(): AsyncGenerator<ReconcileRecord> {
      yield {
        referenceId: paid.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
        amount: '10.00',
      };
      yield {
        referenceId: settled.referenceId,
        operation: 'disbursement.transfer',
        status: 'PENDING',
      };
      yield {
        referenceId: pending.referenceId,
        operation: 'disbursement.transfer',
        status: 'PENDING',
      };
      yield { referenceId: unknown, operation: 'disbursement.transfer', status: 'PENDING' };
      yield {
        referenceId: paidToo.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
        amount: '11',
      };
    }
    const printed: unknown[] = [];
    let progress = '';
    await compile(recipe?.code ?? '')(
      momo,
      reconcile,
      books(),
      { log: (value: unknown) => printed.push(value) },
      { stderr: { write: (text) => (progress += text) } },
    );
    expect(printed).toEqual([
      `update ${settled.referenceId}: FAILED`,
      `look at ${unknown}: NOT_FOUND`,
      `look at ${paidToo.referenceId}: MISMATCH (amount: books 11, provider 10)`,
      {
        total: 5,
        MATCH: 1,
        SETTLED: 1,
        MISMATCH: 1,
        STILL_PENDING: 1,
        NOT_FOUND: 1,
        OTHER_PLATFORM: 0,
        ERROR: 0,
        DUPLICATE: 0,
        MISSING_FROM_BOOKS: 0,
      },
    ]);
    expect(progress.endsWith('\r5/5')).toBe(true);
  });
});
