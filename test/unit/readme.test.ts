import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README is also the package's page on npm, where relative links lead nowhere and
// partners have no copy of the specification the project is built from.
const readme = readFileSync('README.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
};
const REPOSITORY = 'https://github.com/momo-partner-sdk/momo-partner-sdk';
const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);

describe('README.md on the npm page', () => {
  it('links only to absolute https URLs or to its own headings', () => {
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(link, link).toMatch(/^(https:\/\/|#)/);
  });

  it('links into the repository only to files that exist', () => {
    const prefix = `${REPOSITORY}/blob/main/`;
    const own = links.filter((link) => link.startsWith(prefix));
    expect(own.length).toBeGreaterThan(0);
    for (const link of own) expect(existsSync(link.slice(prefix.length)), link).toBe(true);
  });

  it('cites no section of the specification by number', () => {
    expect(readme).not.toMatch(/\bspec(ification)?\s*(§\s*)?\d|§/i);
  });

  it('package.json points at the repository, its page and its issues', () => {
    expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
    expect(pkg.homepage).toBe(`${REPOSITORY}#readme`);
    expect(pkg.bugs.url).toBe(`${REPOSITORY}/issues`);
  });
});
