/**
 * Every room of src/ is on the map: docs/architecture.md's "Where things live" table has
 * a line for each top-level folder of `src`, and names no folder that is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from './import-graph';

const architecture = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
const table = architecture.slice(architecture.indexOf('## Where things live'));
/** The folders the table's rows name (`| \`src/x\` |` and `| \`src/x/y\` |`). */
const rows = [...table.matchAll(/^\| `src\/([\w/-]+)`/gm)].map((m) => m[1] as string);

const folders = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => (dir ? `${dir}/${entry.name}` : entry.name));

describe('docs/architecture.md', () => {
  it('has a line for every top-level folder of src', () => {
    expect(folders('').filter((folder) => !rows.includes(folder))).toEqual([]);
  });

  it('names only folders that exist', () => {
    const all = folders('').flatMap((folder) => [folder, ...folders(folder)]);
    expect(rows.filter((row) => !all.includes(row))).toEqual([]);
  });
});
