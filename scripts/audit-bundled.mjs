/**
 * `npm run audit:bundled` (part of `npm test`): the packages the build copies into dist/
 * (ky, uuid, zod, p-retry, is-network-error) are not dependencies of the package, so a
 * partner's `npm audit` never sees them. This script audits them instead:
 *
 * 1. It bundles the entries as tsup does (esbuild, the peers and the package itself
 *    external) and lists every npm package esbuild read a file of: what dist/ contains.
 *    Each one's installed version must be the one package-lock.json pins.
 * 2. It writes a lockfile holding exactly those packages at those versions and runs
 *    `npm audit --package-lock-only` on it: an advisory of high or critical severity fails.
 *
 * When the registry's audit endpoint cannot be reached (tried three times), the advisory
 * part is reported as skipped and the run passes; with `--require-audit` (the
 * `prepublishOnly` script) it fails instead, so no release goes out unaudited.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ENTRIES = [
  'index',
  'testing/index',
  'redis/index',
  'postgres/index',
  'otel/index',
  'batches/index',
  'reconcile/index',
  'subscriptions/index',
  'outbox/index',
  'cli/index',
];
const FAILING = ['high', 'critical'];
const ATTEMPTS = 3;
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/**
 * The npm packages bundled into dist/, from esbuild's metafile: `{ name, version, key }`,
 * `key` being the package's path in package-lock.json (`node_modules/p-retry`).
 */
export async function bundledPackages(root) {
  const { build } = await import('esbuild');
  const { peerDependencies = {} } = readJson(join(root, 'package.json'));
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES.map((entry) => join(root, 'src', `${entry}.ts`)),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    outdir: join(root, '.scratch/audit-bundled'),
    external: ['momo-partner-sdk', ...Object.keys(peerDependencies)],
    logLevel: 'silent',
  });
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // The innermost node_modules/<name> (or @scope/name) holding the file.
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) dirs.add(match[1]);
  }
  return [...dirs]
    .map((dir) => {
      const { name, version } = readJson(join(root, dir, 'package.json'));
      return { name, version, key: dir.slice(dir.indexOf('node_modules/')) };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Bundled packages whose installed version is not the one package-lock.json pins. */
export function versionMismatches(bundled, lock) {
  return bundled
    .filter((p) => lock.packages?.[p.key]?.version !== p.version)
    .map((p) => {
      const pinned = lock.packages?.[p.key]?.version ?? 'nothing';
      return `${p.name}: ${p.version} installed and bundled, package-lock.json pins ${pinned}`;
    });
}

/** package.json and package-lock.json of a project that depends on the bundled copies only. */
export function auditProject(bundled, lock) {
  const name = 'momo-partner-sdk-bundled';
  const dependencies = Object.fromEntries(
    bundled.filter((p) => p.key === `node_modules/${p.name}`).map((p) => [p.name, p.version]),
  );
  const packages = { '': { name, version: '0.0.0', dependencies } };
  for (const p of bundled) {
    const { dev, devOptional, peer, optional, ...entry } = lock.packages?.[p.key] ?? {};
    packages[p.key] = { ...entry, version: p.version };
  }
  return {
    packageJson: { name, version: '0.0.0', private: true, dependencies },
    packageLock: { name, version: '0.0.0', lockfileVersion: 3, requires: true, packages },
  };
}

/** `npm audit --json` in `dir`, as the process answered. */
function npmAudit(dir) {
  const args = ['audit', '--package-lock-only', '--omit=dev', '--json'];
  const { stdout, stderr, error } = spawnSync('npm', args, { cwd: dir, encoding: 'utf8' });
  return { stdout: stdout ?? '', stderr: stderr ?? error?.message ?? '' };
}

/**
 * Reads one `npm audit --json` answer: `{ advisories }` (each `{ name, severity, title,
 * url }`), or `{ unavailable }` saying why there is no answer (registry unreachable, the
 * audit endpoint refused).
 */
export function readAudit({ stdout, stderr }) {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    return { unavailable: `no report from npm audit: ${stderr.trim().split('\n')[0] ?? ''}` };
  }
  if (!report.metadata?.vulnerabilities) {
    return { unavailable: report.message ?? report.error?.summary ?? 'no report from npm audit' };
  }
  const advisories = Object.values(report.vulnerabilities ?? {}).flatMap((v) =>
    v.via
      .filter((via) => typeof via === 'object')
      .map((via) => ({ name: v.name, severity: via.severity, title: via.title, url: via.url })),
  );
  return { advisories };
}

/**
 * Audits the bundled packages, trying the registry up to three times. `run` and `sleep`
 * are npm and a timer (given by the tests). Returns `{ advisories, failing }` or
 * `{ unavailable }`.
 */
export async function auditBundled(bundled, lock, { run = npmAudit, sleep } = {}) {
  const wait = sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)));
  const dir = mkdtempSync(join(tmpdir(), 'momo-audit-'));
  try {
    const { packageJson, packageLock } = auditProject(bundled, lock);
    writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(packageLock, null, 2));
    let result;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      result = readAudit(run(dir));
      if (!result.unavailable) break;
      if (attempt < ATTEMPTS) await wait(attempt * 2_000);
    }
    if (result.unavailable) return result;
    const failing = result.advisories.filter((a) => FAILING.includes(a.severity));
    return { advisories: result.advisories, failing };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const root = resolve(import.meta.dirname, '..');
  const requireAudit = process.argv.includes('--require-audit');
  const lock = readJson(join(root, 'package-lock.json'));
  const bundled = await bundledPackages(root);
  console.log(`bundled into dist/: ${bundled.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  const mismatches = versionMismatches(bundled, lock);
  for (const line of mismatches) console.error(`FAIL ${line} (run npm ci)`);
  const audit = await auditBundled(bundled, lock);
  let failed = mismatches.length > 0;
  if (audit.unavailable) {
    const word = requireAudit ? 'FAIL' : 'SKIPPED';
    console.error(`${word} advisories not checked: the npm registry's audit endpoint did not`);
    console.error(`answer in ${ATTEMPTS} attempts (${audit.unavailable})`);
    failed ||= requireAudit;
  } else {
    for (const a of audit.advisories) {
      const word = FAILING.includes(a.severity) ? 'FAIL' : 'note';
      console.log(`${word} ${a.name}: ${a.severity}: ${a.title} ${a.url}`);
    }
    console.log(`${audit.advisories.length} advisories, ${audit.failing.length} high or critical`);
    failed ||= audit.failing.length > 0;
  }
  if (failed) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
