import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// The operation tables are internal: the map of endpoints is checked against them.
import type { TableOperation } from '../../src/products/endpoints';
import { operationTables } from '../../src/products/tables';

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

  it('lists every operation of the operation tables, with its method', () => {
    const listed = new Set(
      [...table.matchAll(/`((?:GET|POST|PUT|DELETE) \/[^`]+)`/g)].map((m) => m[1]),
    );
    const missing = Object.values(operationTables)
      .flatMap((ops) => Object.values(ops as Record<string, TableOperation>))
      .map((op) => `${op.method} ${op.path}`)
      .filter((route) => !listed.has(route));
    expect(missing).toEqual([]);
  });

  it("lists all 51 operations of the provider's three documents", () => {
    // Path parameters are named differently in the documents ({x-referenceId}...).
    const shape = (route: string) => route.replace(/\{[^}]+\}/g, '{}');
    const listed = new Set(
      [...table.matchAll(/`((?:GET|POST|PUT|DELETE) \/[^`]+)`/g)].map((m) => shape(m[1] as string)),
    );
    const operations: string[] = [];
    for (const name of ['collection', 'disbursement', 'remittance']) {
      const document = JSON.parse(readFileSync(`test/fixtures/oracle/${name}.json`, 'utf8')) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [path, methods] of Object.entries(document.paths)) {
        if (path.includes('clone-') || path.includes('999{')) continue; // portal artefacts
        for (const method of Object.keys(methods).filter((m) =>
          /^(get|post|put|delete)$/.test(m),
        )) {
          operations.push(`${method.toUpperCase()} /${name}${path}`);
        }
      }
    }
    expect(operations).toHaveLength(51);
    expect(operations.filter((route) => !listed.has(shape(route)))).toEqual([]);
  });
});
