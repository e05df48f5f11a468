/**
 * What a driver hands to the client, checked on the entries as they are BUILT: the main
 * entry and each driver bundled apart (scripts/entries.mjs), the driver importing the
 * main entry by the package's name. From the sources (one module graph) a Symbol() or a
 * class checked by `instanceof` is one value everywhere; bundled apart, a driver carries
 * its own copy, and the main entry would not recognise what the driver gave it (a batch's
 * `createRate` was never applied: the main entry's admission stage ignored its budget).
 *
 * The entries are bundled with esbuild as the build and the entry-size test bundle them,
 * into a scratch `node_modules/momo-partner-sdk`, and run by a plain `node` process: no
 * vitest alias can join the copies again.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_ENTRIES, errorsFromMainEntry } from '../../scripts/entries.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
let scratch: string;

/** Bundles `entry` to `<package>/<name>.js` as the build does (a driver: the main entry external). */
async function bundle(pkg: string, name: string, entry: string, driver: boolean) {
  await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile: join(pkg, `${name}.js`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    ...(driver
      ? { external: ['momo-partner-sdk', 'msw'], plugins: [errorsFromMainEntry(ROOT)] }
      : {}),
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'momo-built-drivers-'));
  const pkg = join(scratch, 'node_modules/momo-partner-sdk');
  mkdirSync(pkg, { recursive: true });
  const exports = {
    '.': './index.js',
    './testing': './testing.js',
    './batches': './batches.js',
    './subscriptions': './subscriptions.js',
  };
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'momo-partner-sdk', type: 'module', exports }),
  );
  await bundle(pkg, 'index', 'src/index.ts', false);
  await bundle(pkg, 'testing', 'src/testing/index.ts', true);
  await bundle(pkg, 'batches', DRIVER_ENTRIES.batches, true);
  await bundle(pkg, 'subscriptions', DRIVER_ENTRIES.subscriptions, true);
}, 120_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Runs an ES module in the scratch project with plain node; returns what it printed, as JSON. */
function runBuilt(source: string): unknown {
  const file = join(scratch, `check-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, source);
  const out = execFileSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

/** The most calls among `times` (ms) in any window of 1,000 ms. */
function maxInAnySecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= 1_000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe('the drivers as built, each bundled apart from the main entry', () => {
  it("a batch's own createRate is kept: never more than it in any sliding second", async () => {
    // Read where the built client's admission stage lets each creating call go (its
    // onRequest hook, as test/batches/pacing.test.ts reads it from the sources: the hook
    // reads the clock a moment after the stage, so two calls let go exactly a second apart
    // may read 999 ms apart: one more than the rate, no more). No client createRate: the
    // batch's alone paces. Unpaced, all twelve go within a few ms.
    const created = runBuilt(`
      import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
      import { createSimulator } from 'momo-partner-sdk/testing';
      const sim = createSimulator({ settleMs: 10 });
      const sent = [];
      const onRequest = ({ operation }) => {
        if (operation === 'disbursement.transfer') sent.push(Date.now());
      };
      const momo = sim.client({ hooks: { onRequest } });
      const items = Array.from({ length: 12 }, (_, i) => ({
        key: 'row-' + i,
        body: {
          amount: '10.00', currency: 'EUR', externalId: 'row-' + i,
          payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
          payerMessage: 'Salary', payeeNote: 'November',
        },
      }));
      const report = await new Batches(momo).run(items, {
        id: 'built-rate', store: memoryBatchStore(), concurrency: 12, createRate: 4,
      });
      console.log(JSON.stringify({ successful: report.summary.successful, sent }));
    `) as { successful: number; sent: number[] };
    expect(created.successful).toBe(12);
    expect(created.sent).toHaveLength(12);
    expect(maxInAnySecond(created.sent)).toBeLessThanOrEqual(4 + 1);
    // 12 at 4/s: the ninth goes two windows after the first at the earliest.
    expect((created.sent[8] as number) - (created.sent[0] as number)).toBeGreaterThanOrEqual(2_000);
  }, 60_000);

  it("a subscriptions pass is paced by the client's createRate (it has no rate of its own)", async () => {
    // The pass's creating calls (each mandate, then each request to pay) go through the
    // main entry's stage with no budget of their own: the client's createRate holds them.
    const created = runBuilt(`
      import { Subscriptions, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
      import { createSimulator } from 'momo-partner-sdk/testing';
      const T0 = Date.UTC(2026, 0, 31, 9);
      const sim = createSimulator({ settleMs: 0, clock: { now: () => T0 } });
      const sent = [];
      const onRequest = ({ operation }) => {
        if (operation.startsWith('collection.') && operation !== 'collection.getAccountBalance') sent.push({ operation, at: Date.now() });
      };
      const momo = sim.client({ hooks: { onRequest }, createRate: 3 });
      const subs = new Subscriptions(momo, {
        store: memorySubscriptionStore(), secret: 'built-subscriptions-secret-0123456789',
        now: () => sim.clock.now(), waitMs: 5000, recheckMs: 60000,
        invoicePayee: { partyIdType: 'MSISDN', partyId: '233244000001' },
      });
      await subs.plan({ id: 'gym', amount: '50', currency: 'EUR', every: 'month', retry: ['1d'] });
      for (let i = 0; i < 4; i++) {
        await subs.subscribe({
          key: 'member-' + i, plan: 'gym', startAt: new Date(T0), mandateDays: 400,
          payer: { partyIdType: 'MSISDN', partyId: '23324455500' + i },
        });
      }
      const pass = await subs.runDue();
      console.log(JSON.stringify({ successful: pass.counts.successful, sent }));
    `) as { successful: number; sent: { operation: string; at: number }[] };
    expect(created.successful).toBe(4);
    const creating = created.sent.filter(({ operation }) =>
      ['collection.preApproval', 'collection.requestToPay'].includes(operation),
    );
    expect(creating.length).toBeGreaterThanOrEqual(8); // a mandate and a charge per member
    // As let go (the hook's moment: one more than the rate at most, as above).
    expect(maxInAnySecond(creating.map(({ at }) => at))).toBeLessThanOrEqual(3 + 1);
  }, 60_000);
});
