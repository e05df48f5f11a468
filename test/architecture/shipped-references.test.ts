/**
 * The package ships its comments and typings (`.d.ts`) but not the repository's design
 * notes: a reference in src/ points at a page of docs/, never at "DESIGN". No file is
 * exempt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './import-graph';

const mentioning = sourceFiles().filter((file) =>
  /\bDESIGN\b/.test(readFileSync(join(SRC, file), 'utf8')),
);

describe('references shipped in src/', () => {
  it('reads the source files it checks', () => {
    expect(sourceFiles().length).toBeGreaterThan(50);
  });

  it('point at docs/ pages, never at DESIGN', () => {
    expect(mentioning).toEqual([]);
  });
});
