import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/endpoints.md maps every endpoint of the specification to a test: keep it true.
const table = readFileSync('docs/endpoints.md', 'utf8');
const REFERENCE = /`(test\/[\w./-]+\.ts)`(?: "([^"]+)")?/g;

describe('docs/endpoints.md', () => {
  it('lists all 21 endpoints of the specification, 4.1 to 4.21', () => {
    const sections = [...table.matchAll(/^\| (4\.\d+) +\|/gm)].map((m) => m[1]);
    expect(sections).toEqual(Array.from({ length: 21 }, (_, i) => `4.${i + 1}`));
  });

  it('names only tests that exist', () => {
    const references = [...table.matchAll(REFERENCE)];
    expect(references.length).toBeGreaterThan(40);
    for (const [, file, title] of references) {
      expect(existsSync(file as string), file).toBe(true);
      if (title)
        expect(readFileSync(file as string, 'utf8'), `${file}: "${title}"`).toContain(title);
    }
  });
});
