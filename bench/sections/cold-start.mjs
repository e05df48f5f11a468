/**
 * Cold start of a single-file serverless bundle of `MomoClient` (DESIGN 10.2), before and
 * after the drivers left the client, both built and run in this run:
 * - before: `MomoClient` and the four drivers (batches, reconcile, subscriptions, the
 *   outbox relay) in one bundle, which is what the client's constructor used to reach (no
 *   bundler could drop them);
 * - after: `MomoClient` alone, as a partner who makes one payment bundles it now.
 * Both are bundled from the sources by esbuild (--bundle --minify --platform=node, ESM), so
 * the drivers share one copy of what they have in common with the client, as they did
 * inside it. Each bundle is loaded in a fresh process (bench/probes/cold-start.mjs: import,
 * then `new MomoClient(...)`), the two alternated, medians over runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { plan } from '../lib/config.mjs';
import { runPlain, scriptPath } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';
import { dec, int, ratio, table } from '../lib/table.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const src = (path) => JSON.stringify(join(ROOT, 'src', path));

const SOURCES = {
  before: [
    `import { MomoClient } from ${src('index.ts')};`,
    `import { Batches } from ${src('batches/index.ts')};`,
    `import { reconcile } from ${src('reconcile/index.ts')};`,
    `import { Subscriptions } from ${src('subscriptions/index.ts')};`,
    `import { startOutboxRelay } from ${src('outbox/index.ts')};`,
    'export { MomoClient };',
    'export const drivers = [Batches, reconcile, Subscriptions, startOutboxRelay];',
  ].join('\n'),
  after: `export { MomoClient } from ${src('index.ts')};`,
};

async function bundle(dir, name) {
  const entry = join(dir, `${name}-entry.mjs`);
  const outfile = join(dir, `${name}.mjs`);
  writeFileSync(entry, `${SOURCES[name]}\n`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const code = readFileSync(outfile);
  return { file: outfile, minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function measureColdStart(node) {
  const dir = join(ROOT, '.scratch/bench-cold-start');
  mkdirSync(dir, { recursive: true });
  const bundles = { before: await bundle(dir, 'before'), after: await bundle(dir, 'after') };
  const samples = { before: { ms: [], wall: [] }, after: { ms: [], wall: [] } };
  const failures = [];
  const probe = scriptPath('probes/cold-start.mjs');
  const order = ['before', 'after'];
  for (let run = 0; run < plan.importRuns * 2; run++) {
    for (const name of run % 2 ? order : [...order].reverse()) {
      const result = await runPlain(node.execPath, [probe, bundles[name].file]);
      if (result.code !== 0) {
        failures.push(`${name}: exit ${result.code} ${result.stderr.trim().slice(-500)}`);
        continue;
      }
      samples[name].ms.push(JSON.parse(result.stdout).ms);
      samples[name].wall.push(result.wallMs);
    }
  }
  const summary = { node: node.label, runs: plan.importRuns * 2, failures };
  for (const name of order) {
    summary[name] = {
      ...bundles[name],
      ms: median(samples[name].ms),
      wall: median(samples[name].wall),
    };
  }
  return summary;
}

export function printColdStart(summary) {
  const { before, after } = summary;
  const row = (what, cell, base) => [
    what,
    dec(cell.minBytes / 1024),
    dec(cell.gzipBytes / 1024),
    dec(cell.ms),
    int(cell.wall),
    base,
  ];
  table(
    `Cold start of a single-file bundle of MomoClient, ${summary.node}: fresh process each, medians of ${summary.runs} runs (import + new MomoClient)`,
    ['bundle', 'min KB', 'gzip KB', 'in-process ms', 'wall ms', 'ratio'],
    [
      row('before: MomoClient + the four drivers (what the client reached)', before, 'baseline'),
      row(
        'after: MomoClient alone',
        after,
        `${ratio(after.ms / before.ms)} in-process, ${ratio(after.wall / before.wall)} wall`,
      ),
    ],
  );
  for (const failure of summary.failures) console.log(`  probe failed: ${failure}`);
}
