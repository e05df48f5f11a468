import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditBundled,
  auditProject,
  type BundledPackage,
  bundledPackages,
  readAudit,
  versionMismatches,
} from '../../scripts/audit-bundled.mjs';

// scripts/audit-bundled.mjs (`npm run audit:bundled`): what dist/ bundles, audited as if
// it were a dependency. The npm registry's answers are recorded shapes of `npm audit --json`.
const root = resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const BUNDLED = ['is-network-error', 'ky', 'p-retry', 'uuid', 'zod'];

const report = (vulnerabilities: Record<string, unknown>, counts: Record<string, number>) => ({
  stdout: JSON.stringify({ vulnerabilities, metadata: { vulnerabilities: counts } }),
  stderr: '',
});
const clean = report({}, { low: 0, moderate: 0, high: 0, critical: 0 });
const refused = {
  stdout: JSON.stringify({ message: '405 Method Not Allowed', error: { summary: '' } }),
  stderr: 'npm error audit endpoint returned an error',
};
const advisory = (severity: string) =>
  report(
    {
      ky: {
        name: 'ky',
        severity,
        via: [{ title: 'A flaw', url: 'https://example.com/a', severity }],
      },
    },
    { [severity]: 1 },
  );
const ky: BundledPackage[] = [{ name: 'ky', version: '1.14.3', key: 'node_modules/ky' }];

describe('the bundled packages', () => {
  it('are the five docs/security.md names, at the versions package-lock.json pins', async () => {
    const bundled = await bundledPackages(root);
    expect(bundled.map((p) => p.name)).toEqual(BUNDLED);
    expect(versionMismatches(bundled, lock)).toEqual([]);
    const security = readFileSync(join(root, 'docs/security.md'), 'utf8');
    // Its table is what a partner audits: each row names the version dist/ holds.
    for (const { name, version } of bundled) {
      expect(security).toMatch(new RegExp(`^\\| \`${name}\` \\|[^\\n]*\\| ${version} \\|$`, 'm'));
    }
  });

  it('a copy that is not the locked version is reported', () => {
    const stale = [{ name: 'ky', version: '1.0.0', key: 'node_modules/ky' }];
    expect(versionMismatches(stale, lock)).toEqual([
      `ky: 1.0.0 installed and bundled, package-lock.json pins ${lock.packages['node_modules/ky'].version}`,
    ]);
  });

  it('are audited as the only, non-dev dependencies of a project of their own', () => {
    const nested = { name: 'x', version: '1.0.0', key: 'node_modules/p-retry/node_modules/x' };
    const { packageJson, packageLock } = auditProject([...ky, nested], {
      packages: { 'node_modules/ky': { version: '1.14.3', dev: true, integrity: 'sha512-k' } },
    });
    expect(packageJson.dependencies).toEqual({ ky: '1.14.3' });
    expect(packageLock.packages['node_modules/ky']).toEqual({
      version: '1.14.3',
      integrity: 'sha512-k',
    });
    expect(packageLock.packages['node_modules/p-retry/node_modules/x']).toEqual({
      version: '1.0.0',
    });
  });
});

describe('the audit', () => {
  const noSleep = async () => {};

  it('fails on a high or critical advisory, lists lower ones', async () => {
    for (const [severity, failing] of [
      ['moderate', 0],
      ['high', 1],
      ['critical', 1],
    ] as const) {
      const result = await auditBundled(ky, lock, { run: () => advisory(severity) });
      expect(result).toMatchObject({ advisories: [{ name: 'ky', severity, title: 'A flaw' }] });
      expect('failing' in result && result.failing).toHaveLength(failing);
    }
  });

  it('tries an unreachable or refusing registry three times, then says so', async () => {
    const answers = [refused, refused, clean];
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const result = await auditBundled(ky, lock, { run: () => answers.shift()!, sleep });
    expect(result).toEqual({ advisories: [], failing: [] });
    expect(waits).toEqual([2_000, 4_000]);
    let calls = 0;
    const down = await auditBundled(ky, lock, {
      run: () => {
        calls++;
        return { stdout: '', stderr: 'npm error network request failed, reason: ECONNREFUSED' };
      },
      sleep: noSleep,
    });
    expect(calls).toBe(3);
    expect(down).toEqual({
      unavailable:
        'no report from npm audit: npm error network request failed, reason: ECONNREFUSED',
    });
  });

  it('reads npm audit --json', () => {
    expect(readAudit(clean)).toEqual({ advisories: [] });
    expect(readAudit(refused)).toEqual({ unavailable: '405 Method Not Allowed' });
  });
});
