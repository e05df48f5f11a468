import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { brokenLinks, packedDocs, packedFiles, unmarkedCitations } from '../package/docs.mjs';

// README.md is the package's page on npm and ships with docs/: a reader there (or in
// node_modules/momo-partner-sdk) has the tarball and nothing else. The tarball's file
// list is npm's own (`npm pack --dry-run`), so package.json `files` decides, not a copy.
const root = resolve(import.meta.dirname, '../..');
let shipped: Set<string>;

// npm itself takes a few seconds to start on a busy machine.
beforeAll(() => {
  shipped = packedFiles(root);
}, 60_000);

describe('README.md and docs/ as the npm package has them', () => {
  it('ship, README.md and every docs/*.md but none of src/, test/, bench/', () => {
    expect(packedDocs(shipped)).toContain('docs/assumptions.md');
    expect(shipped.has('README.md')).toBe(true);
    expect([...shipped].filter((f) => /^(src|test|bench)\//.test(f))).toEqual([]);
  });

  it('link only to files in the package', () => {
    const { broken, checked } = brokenLinks(root, shipped);
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('cite files and npm scripts only the repository has as the repository’s', () => {
    expect(unmarkedCitations(root, shipped)).toEqual([]);
  });
});

describe('the citation check', () => {
  // A scratch "package": its package.json ships README.md only; src/ and bench/ exist.
  const page = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-docs-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'bench'));
    writeFileSync(join(dir, 'src/a.ts'), '');
    writeFileSync(join(dir, 'bench/README.md'), '');
    writeFileSync(join(dir, 'package.json'), '{ "scripts": { "bench": "x" } }');
    writeFileSync(join(dir, 'README.md'), text);
    try {
      return unmarkedCitations(dir, new Set(['README.md', 'package.json']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('finds a repository file or script cited as if the package had it', () => {
    expect(page('# x\n\n`src/a.ts` runs it.\n')).toEqual([
      "README.md:3: src/a.ts is not in the package; say it is the repository's",
    ]);
    expect(page('# x\n\n- one\n- Measured by `npm run bench`.\n')).toHaveLength(1);
    expect(
      page('| a | b |\n| --- | --- |\n| the repository | x |\n| `src/a.ts` | y |\n'),
    ).toHaveLength(1);
    expect(page('# x\n\nRun it:\n\n```sh\nnode bench/README.md\n```\n')).toHaveLength(1);
  });

  it('accepts one its block says is in the repository, and links and URLs', () => {
    expect(page("# x\n\nThe repository's `src/a.ts` runs it.\n")).toEqual([]);
    expect(page('# x\n\nIn the repository:\n\n```sh\nnode bench/README.md\n```\n')).toEqual([]);
    expect(page('# x\n\nIn the repository:\n\n- `src/a.ts`\n- `npm run bench`\n')).toEqual([]);
    expect(page("> Paths here are the repository's.\n\n## y\n\n`src/a.ts`\n")).toEqual([]);
    expect(page('# x\n\n`npm install x`, https://example.com/src/a.ts, `momo/src`\n')).toEqual([]);
  });
});
