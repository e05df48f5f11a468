import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MomoClient } from 'momo-partner-sdk';
import { Batches, type BatchReport, fileBatchStore } from 'momo-partner-sdk/batches';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from '../cli/support';
import { collectSnippets } from '../support/snippets';

// README's "Pay a list", run as written against a loopback simulator with the provider's
// caps: the CLI lines through the CLI (a child process, in the partner's folder), then the
// library snippet. The README cannot drift from what the SDK does.
const root = resolve(import.meta.dirname, '../..');
const readme = await readFile(join(root, 'README.md'), 'utf8');
const section = /^## Pay a list\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
const shell = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const library = collectSnippets(root).find(
  (s) => s.where.startsWith('README.md') && s.heading === 'Pay a list',
);

const { sim, url, env } = useLoopbackSimulator({
  limits: { lookupsPerSecond: 100, createsPerSecond: 100 },
});
const SECRET = 'readme-batch-secret-7f3a91c2';
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-pay-a-list-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The `npx momo-partner-sdk ...` lines of the shell block, as argument lists. */
function cliLines(): string[][] {
  return shell
    .split('\n')
    .filter((line) => line.startsWith('npx momo-partner-sdk '))
    .map((line) => line.replace(/#.*$/, '').trim().split(/\s+/).slice(2));
}

const transfers = () => sim.transactions.filter((tx) => tx.operation === 'disbursement.transfer');

type Snippet = (
  momo: MomoClient,
  batches: typeof Batches,
  store: typeof fileBatchStore,
  process: { env: Record<string, string> },
) => Promise<BatchReport>;

/** The library snippet as the body of a function; its one import's names are handed in. */
function compile(code: string): Snippet {
  const imports = code.split('\n').filter((line) => line.startsWith('import '));
  expect(imports).toEqual(["import { Batches, fileBatchStore } from 'momo-partner-sdk/batches';"]);
  const body = code
    .split('\n')
    .filter((line) => !line.startsWith('import '))
    .join('\n');
  const wrapped = `async function snippet(momo, Batches, fileBatchStore, process) {\n${body}\nreturn report;\n}`;
  const { outputText } = ts.transpileModule(wrapped, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return new Function(`${outputText}\nreturn snippet;`)() as Snippet;
}

describe('README "Pay a list"', { timeout: 90_000 }, () => {
  it('the CLI lines: a dry run, then every row paid once; again without .momo/: nothing sent twice', async () => {
    expect(shell).toMatch(
      /^export MOMO_SUBSCRIPTION_KEY=\S+ MOMO_API_USER=\S+ MOMO_API_KEY=\S+ MOMO_BATCH_SECRET=\S+$/m,
    );
    const [dryRun, pay, ...more] = cliLines();
    expect(more).toEqual([]);
    expect(dryRun).toContain('--dry-run');
    // `key,msisdn,amount,currency` and a column of the partner's own.
    await writeFile(
      join(dir, 'payroll.csv'),
      'key,msisdn,amount,currency,team\r\nemp-1,46733123999,150,EUR,ops\r\nemp-2,46733123455,80,EUR,sales\r\n',
    );
    const environment = { ...env(), MOMO_BATCH_SECRET: SECRET };
    const run = (args: string[]) => runCli(args, environment, 60_000, dir);

    const dry = await run(dryRun ?? []);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('EUR: 230 to send'); // "totals, estimate"
    expect(dry.stdout).toMatch(/^estimate: about \d+ s/m);
    expect(transfers()).toEqual([]);

    const paid = await run(pay ?? []);
    expect(paid.code, paid.stderr).toBe(0);
    const results: Record<string, string>[] = [];
    for await (const record of readCsvRecords(join(dir, 'payroll.results.csv'))) {
      results.push(record.values);
    }
    expect(results.map((r) => [r.key, r.team, r.status, r.reason])).toEqual([
      ['emp-1', 'ops', 'SUCCESSFUL', ''],
      ['emp-2', 'sales', 'FAILED', 'NOT_ENOUGH_FUNDS'],
    ]);
    // The two rows are sent concurrently: the provider may receive them in either order.
    const sent = transfers().map((tx) => [tx.referenceId, tx.tag]);
    expect(sent.sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [results[0]?.referenceId, 'payroll-2026-11/emp-1'],
      [results[1]?.referenceId, 'payroll-2026-11/emp-2'],
    ]);

    await rm(join(dir, '.momo'), { recursive: true }); // "even if the state folder was lost"
    const again = await run(pay ?? []);
    expect(again.code, again.stderr).toBe(0);
    expect(transfers()).toHaveLength(2);
    const rerun: string[] = [];
    for await (const record of readCsvRecords(join(dir, 'payroll.results.csv'))) {
      rerun.push(`${record.values.referenceId} ${record.values.status}`);
    }
    expect(rerun).toEqual(results.map((r) => `${r.referenceId} ${r.status}`));
  });

  it('the library snippet pays its row; run again (the same id), it sends nothing', async () => {
    expect(library?.code).toContain('new Batches(momo).run(rows');
    const snippet = compile(library?.code ?? '');
    const { baseUrl: _, ...credentials } = sim.credentials;
    const momo = sim.client({ ...credentials, baseUrl: url(), fetch: globalThis.fetch });
    // Relative paths resolve in the partner's folder: another one than the CLI's, with
    // another secret (the same batch id and key under one secret name one payment).
    const store: typeof fileBatchStore = (path) => fileBatchStore(resolve(dir, 'app', path));
    const env = { MOMO_BATCH_SECRET: `${SECRET}-app` };
    const before = transfers().length;

    const report = await snippet(momo, Batches, store, { env });
    expect(report.summary).toMatchObject({ total: 1, successful: 1, failed: 0, rejected: 0 });
    expect(report.summary.amounts).toEqual({ EUR: { successful: '150', failed: '0' } });
    const [item] = report.items;
    const sent = transfers().slice(before);
    expect(sent.map((tx) => [tx.referenceId, tx.amount, tx.payee?.partyId])).toEqual([
      [item?.referenceId, '150', '256772123999'],
    ]);

    const again = await snippet(momo, Batches, store, { env });
    expect(again.items).toEqual(report.items);
    expect(transfers().length).toBe(before + 1);
  });
});
