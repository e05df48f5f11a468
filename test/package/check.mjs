/**
 * `npm run test:package` (after the build): the PACKED tarball, installed into a scratch
 * consumer outside the project the way a partner installs it (without msw), then run
 * everywhere partners run it: Node ESM and CJS, a Jest 29 suite in CommonJS mode, a
 * vitest suite in ESM, a browser bundle with only web globals, Node 22 and 24, Bun and
 * Deno; and type-checked under `moduleResolution: node` and `nodenext` (with and
 * without msw), examples/checkout with its own tsconfig.json. Prints one line
 * per check (the README's compatibility table is filled from these); a runtime that
 * cannot be installed here is reported as skipped, with the reason. Exits 1 on a failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkDistImports, checkPackedFiles } from './dist.mjs';
import { checkFreshClonePack, checkPackedDocs } from './docs.mjs';
import {
  driversCjs,
  driversEsm,
  jestSuite,
  journeyCjs,
  journeyEsm,
  postgresCjs,
  postgresEsm,
  redisCjs,
  redisEsm,
  runCjs,
  runEsm,
  vitestSuite,
} from './journey.mjs';
import { importTestingOnly, locate, RUNTIMES, smokeRuns } from './runtimes.mjs';
import { testingWithoutMsw, typeChecks } from './types.mjs';
import { checkWebGlobals } from './web-globals.mjs';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'momo-package-'));
const consumer = join(scratch, 'consumer');
const results = [];

async function check(name, run) {
  try {
    const detail = await run();
    results.push({ name, outcome: 'pass', detail });
  } catch (error) {
    const output = [error.stdout, error.stderr].filter(Boolean).join('\n').trim();
    results.push({ name, outcome: 'FAIL', detail: `${error.message}\n${output}`.trim() });
  }
}

/** A fresh project with the tarball installed from its path, as `npm install` does. */
function install(dir, tarball) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
  const args = ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'];
  execFileSync('npm', args, { cwd: dir, stdio: 'pipe' });
}

/**
 * examples/checkout for a Jest project: app.ts compiled to CommonJS as ./app.js (the
 * package left external, so the installed tarball is what runs), beside app.jest.test.js.
 */
function buildCheckoutForJest(root, dir) {
  mkdirSync(dir, { recursive: true });
  const esbuild = join(root, 'node_modules/.bin/esbuild');
  execFileSync(esbuild, [
    join(root, 'examples/checkout/app.ts'),
    '--format=cjs',
    '--platform=node',
    '--bundle',
    '--external:momo-partner-sdk',
    `--outfile=${join(dir, 'app.js')}`,
    '--log-level=warning',
  ]);
  copyFileSync(join(root, 'examples/checkout/app.jest.test.js'), join(dir, 'app.jest.test.js'));
}

/** Runs a command in the consumer; returns its last line of output. */
function inConsumer(command, args, options = {}) {
  const out = execFileSync(command, args, {
    cwd: consumer,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 120_000,
    ...options,
  });
  return out.trim().split('\n').at(-1) ?? '';
}

try {
  await check('dist imports', () => checkDistImports(root));
  const [pack] = JSON.parse(
    // dist/ was just built: no second build by prepack (checkFreshClonePack tests prepack).
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  await check('files shipped', () => checkPackedFiles(pack));
  await check('docs shipped, links resolve in the package, repository files cited as such', () =>
    checkPackedDocs(root, pack),
  );
  await check('npm pack on a fresh clone (prepack builds dist/)', () => checkFreshClonePack(root));

  const tarball = join(scratch, pack.filename);
  install(consumer, tarball);
  await check('no msw in the consumer', () => {
    const installed = readdirSync(join(consumer, 'node_modules')).filter((f) => !f.startsWith('.'));
    if (installed.join() !== 'momo-partner-sdk')
      throw new Error(`installed: ${installed.join(', ')}`);
    return 'npm installed the tarball alone (no dependencies, msw absent)';
  });
  for (const [label, run] of testingWithoutMsw(root, consumer)) await check(label, run);
  mkdirSync(join(consumer, 'jest'));
  mkdirSync(join(consumer, 'vitest'));
  // The test runners are this repository's own (devDependencies), not installed again.
  symlinkSync(join(root, 'node_modules/vitest'), join(consumer, 'node_modules/vitest'), 'dir');
  const files = {
    'journey.mjs': journeyEsm,
    'journey.cjs': journeyCjs,
    'run-esm.mjs': runEsm('esm'),
    'run-cjs.cjs': runCjs('cjs'),
    'import-testing.mjs': importTestingOnly,
    'redis-esm.mjs': redisEsm,
    'redis-cjs.cjs': redisCjs,
    'postgres-esm.mjs': postgresEsm,
    'postgres-cjs.cjs': postgresCjs,
    'drivers-esm.mjs': driversEsm,
    'drivers-cjs.cjs': driversCjs,
    'jest/deposit.test.js': jestSuite,
    'vitest/deposit.test.mjs': vitestSuite,
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(consumer, file), text);
  // ./otel: the partner brings @opentelemetry/api and an SDK (this repository's copies).
  symlinkSync(
    join(root, 'node_modules/@opentelemetry'),
    join(consumer, 'node_modules/@opentelemetry'),
  );
  for (const file of ['otel-cjs.cjs', 'otel-esm.mjs']) {
    copyFileSync(join(import.meta.dirname, file), join(consumer, file));
  }

  await check(`Node ${process.versions.node} ESM`, () =>
    inConsumer(process.execPath, ['run-esm.mjs']),
  );
  await check(`Node ${process.versions.node} CJS`, () =>
    inConsumer(process.execPath, ['run-cjs.cjs']),
  );
  await check('./otel with @opentelemetry/api, CJS', () =>
    inConsumer(process.execPath, ['otel-cjs.cjs']),
  );
  await check('./otel with @opentelemetry/api, ESM', () =>
    inConsumer(process.execPath, ['otel-esm.mjs']),
  );
  await check('./redis without a Redis client, ESM', () =>
    inConsumer(process.execPath, ['redis-esm.mjs']),
  );
  await check('./redis without a Redis client, CJS', () =>
    inConsumer(process.execPath, ['redis-cjs.cjs']),
  );
  await check('./postgres without pg, ESM', () =>
    inConsumer(process.execPath, ['postgres-esm.mjs']),
  );
  await check('./postgres without pg, CJS', () =>
    inConsumer(process.execPath, ['postgres-cjs.cjs']),
  );
  await check(
    './batches, ./reconcile, ./subscriptions, ./outbox, ./graphile-worker share the errors, ESM',
    () => inConsumer(process.execPath, ['drivers-esm.mjs']),
  );
  await check(
    './batches, ./reconcile, ./subscriptions, ./outbox, ./graphile-worker share the errors, CJS',
    () => inConsumer(process.execPath, ['drivers-cjs.cjs']),
  );
  // Jest reports on stderr, vitest on stdout; NO_COLOR keeps it plain.
  const runner = (args, tests = 2) => {
    const { status, stdout, stderr } = spawnSync(process.execPath, args, {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    });
    const output = `${stdout}\n${stderr}`;
    const summary = output.split('\n').find((line) => /^\s*Tests:?\s/.test(line)) ?? '';
    // Every test must pass: a suite that failed to load reports "0 total" and exit 1.
    if (
      status !== 0 ||
      !new RegExp(`\\b${tests} passed\\b`).test(summary) ||
      /fail/i.test(summary)
    ) {
      throw new Error(`exit ${status}: ${output}`);
    }
    return summary.trim().replace(/\s+/g, ' ');
  };
  await check('Jest 29, CommonJS, default config', () =>
    runner([join(root, 'node_modules/jest/bin/jest.js'), '--rootDir', join(consumer, 'jest')]),
  );
  await check('examples/checkout under Jest 29 (app.jest.test.js)', () => {
    buildCheckoutForJest(root, join(consumer, 'checkout'));
    return runner(
      [join(root, 'node_modules/jest/bin/jest.js'), '--rootDir', join(consumer, 'checkout')],
      5,
    );
  });
  await check('vitest, ESM', () =>
    runner([
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--root',
      join(consumer, 'vitest'),
    ]),
  );
  await check('web globals only (browser bundle in node:vm)', () => checkWebGlobals(consumer));

  for (const runtime of RUNTIMES) {
    const found = locate(root, runtime);
    if (found.skip) {
      results.push({ name: runtime.name, outcome: 'skipped', detail: found.skip });
      continue;
    }
    for (const [label, [bin, ...args]] of smokeRuns(runtime, found.bin)) {
      await check(`${runtime.name} (${found.version}) ${label}`, () =>
        inConsumer(bin, args, { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }),
      );
    }
  }
  // Types: a second consumer, with @types/node and msw as a Node partner using msw has.
  const typesConsumer = join(scratch, 'types-consumer');
  install(typesConsumer, tarball);
  for (const [label, run] of typeChecks(root, typesConsumer)) await check(label, run);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const { name, outcome, detail } of results) {
  console.log(`${outcome.padEnd(7)} ${name}: ${detail}`);
}
const failed = results.filter((r) => r.outcome === 'FAIL');
if (failed.length > 0) {
  console.error(`\n${failed.length} package check(s) failed`);
  process.exitCode = 1;
}
