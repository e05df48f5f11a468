import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { collectSnippets, runSnippet as runSnippetIn } from '../support/snippets';

// The README is the package's page on npm and ships with docs/ in the package: its
// links resolve inside the package (test:package checks the packed list), its snippets
// compile (snippets.test.ts), and the ones that run, run here against the simulator.
const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const LINK = /\]\(([^)\s]+)\)/g;
const snippets = collectSnippets(root);

function snippetUnder(heading: string, file = 'README.md'): string {
  const found = snippets.find((s) => s.where.startsWith(`${file}:`) && s.heading === heading);
  if (!found) throw new Error(`no snippet under "${heading}" in ${file}`);
  return found.code;
}

const runSnippet = (name: string, code: string, env: Record<string, string> = {}) =>
  runSnippetIn(root, name, code, env);

function anchorsOf(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/^#{1,4} (.+)$/gm)].map((m) =>
      (m[1] as string)
        .toLowerCase()
        .replace(/[^\w\s-]/g, '')
        .replace(/\s/g, '-'),
    ),
  );
}

describe('README.md and docs/', () => {
  it('link only to https URLs, their own headings, or files beside them', () => {
    for (const file of ['README.md', ...docs]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, link] of text.matchAll(LINK)) {
        const target = link as string;
        expect(target, `${file}: ${target}`).not.toMatch(/github\.com\/momo-partner-sdk\//);
        if (/^https:\/\//.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : normalize(join(dirname(file), path));
        expect(existsSync(join(root, resolved)), `${file}: ${target}`).toBe(true);
        if (anchor && resolved.endsWith('.md')) {
          const anchors = anchorsOf(readFileSync(join(root, resolved), 'utf8'));
          expect(anchors.has(anchor), `${file}: ${target} (no such heading)`).toBe(true);
        }
      }
    }
  });

  it('cite only files that are in the repository', () => {
    // Any path with a file extension, but built files (dist/) and installed ones.
    const PATH =
      /`((?!dist\/|node_modules\/)[\w.-]+(?:\/[\w.{}-]+)+\.(?:ts|mjs|js|cjs|md|json|ya?ml))`/g;
    const cited = ['README.md', ...docs].flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(PATH)].map((m) => [file, m[1]]),
    );
    expect(cited.length).toBeGreaterThan(10);
    const missing = cited
      .filter(([, path]) => !(path as string).includes('{')) // a pattern, not a file
      .filter(([, path]) => !existsSync(join(root, path as string)))
      .map(([file, path]) => `${file} cites ${path}`);
    expect(missing).toEqual([]);
  });

  it('cites no section of the specification by number', () => {
    expect(readme).not.toMatch(/\bspec(ification)?\s*(§\s*)?\d|§/i);
  });

  it('has a table of contents naming every section', () => {
    const toc = readme.slice(readme.indexOf('## Contents'), readme.indexOf('## Install'));
    for (const [, title] of readme.matchAll(/^## (.+)$/gm)) {
      if (title === 'Contents') continue;
      expect(toc, title).toContain(`](#${[...anchorsOf(`## ${title}`)][0]})`);
    }
  });

  it('shows the test file for an HTTP app exactly as examples/checkout/app.test.ts is', () => {
    const file = readFileSync(join(root, 'examples/checkout/app.test.ts'), 'utf8');
    expect(`${snippetUnder('A test file for an HTTP app', 'docs/testing.md')}\n`).toBe(file);
  });
});

describe('README snippets run against the simulator', () => {
  it('First payment, exactly as written, ends SUCCESSFUL', { timeout: 90_000 }, async () => {
    const sim = createSimulator({ settleMs: 100 });
    const server = await sim.listen({ port: 0 });
    try {
      const { subscriptionKey, apiUser } = sim.credentials;
      const run = await runSnippet('first-payment.ts', snippetUnder('First payment'), {
        MOMO_BASE_URL: server.url,
        MOMO_SUBSCRIPTION_KEY: subscriptionKey,
        MOMO_API_USER: apiUser.id,
        MOMO_API_KEY: apiUser.key,
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^asked the payer; referenceId [0-9a-f-]{36}\npaid \S+\n$/);
      expect(run.code).toBe(0);
      expect(sim.transactions.map((t) => [t.operation, t.status])).toEqual([
        ['collection.requestToPay', 'SUCCESSFUL'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('the simulator prints the credentials First payment tells you to export', () => {
    const sim = createSimulator();
    const { subscriptionKey, apiUser } = sim.credentials;
    expect(readme).toContain(`MOMO_SUBSCRIPTION_KEY=${subscriptionKey}`);
    expect(readme).toContain(`MOMO_API_USER=${apiUser.id} MOMO_API_KEY=${apiUser.key}`);
  });

  it('the msw recipe lets loopback callbacks through and runs to the end', {
    timeout: 90_000,
  }, async () => {
    const run = await runSnippet('with-msw.ts', snippetUnder('With msw', 'docs/testing.md'));
    expect(run.stderr).toBe('');
    // 202: each callback accepted at once (its payment pending here), confirmed after.
    expect(run.stdout.split('\n')).toEqual(['FAILED', 'SUCCESSFUL', '[ 202, 202 ]', 'Bearer', '']);
    expect(run.code).toBe(0);
  });

  it('Testing your code, exactly as written, plays the payer', { timeout: 90_000 }, async () => {
    const run = await runSnippet('testing.ts', snippetUnder('Testing your code'));
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')).toEqual(['SUCCESSFUL', 'FAILED', '']);
    expect(run.code).toBe(0);
  });
});

describe('README.md as a front door', () => {
  it('stays short: the rest lives in docs/, each page listed in its map', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(600);
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const pages = docs.filter((f) => f !== 'docs/README.md').map((f) => f.slice('docs/'.length));
    expect(pages.filter((page) => !index.includes(`](${page})`))).toEqual([]);
  });

  it('has a CHANGELOG for a user: Added / Changed / Fixed, no internal numbers or paths, no repeats', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const kinds = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(
      kinds.filter((kind) => !['Added', 'Changed', 'Fixed', 'Removed'].includes(kind as string)),
    ).toEqual([]);
    expect(changelog).not.toMatch(/\b(issue|round) \d+|\bsrc\/|\bbench\//i);
    const bullets = changelog
      .split(/^- /m)
      .slice(1)
      .map((b) => b.trim());
    expect(bullets.filter((b, i) => bullets.indexOf(b) !== i)).toEqual([]);
  });
});
