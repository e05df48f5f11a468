import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The client runs wherever fetch does (browsers, workers, Deno, Bun): its code uses no
// Node-only global and imports no Node module at run time. The simulator (src/testing)
// the CLI and ./redis are Node tools and exempt, and so is the Node pool
// (src/core/node-pool), whose modules touch Node only when called, and which
// src/core/sender.ts (loadNodePath) calls only after checking that the runtime is Node. The package check runs the built entry with web globals only;
// this names the offending line before a build.
const NODE_ONLY = [
  [/(?<![\w.])Buffer\b/, 'Buffer'],
  [/(?<![\w.'-])process\b/, 'process'],
  [/(?<![\w.])require\(/, 'require()'],
  [/(?<![\w.])__dirname\b|(?<![\w.])__filename\b/, '__dirname/__filename'],
  [/^import (?!type\b)[^;]*from 'node:/, 'a run-time node: import'],
] as const;

const NODE_TOOLS = [
  join('src', 'testing'),
  join('src', 'cli'),
  join('src', 'redis'),
  join('src', 'core', 'node-pool'),
  // fileBatchStore: a batch's file on disk, its node:fs loaded when the store is used.
  join('src', 'batches', 'file-store.ts'),
  join('src', 'subscriptions', 'file-store.ts'),
  // graphile-worker runs on Node only (its pg pool), and so does its adapter.
  join('src', 'graphile-worker'),
  // A tenant's rate scope: a SHA-256 of its key from node:crypto, which Node, Bun and Deno
  // all have (an aggregator's deployment is a server).
  join('src', 'tenants', 'budget.ts'),
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (NODE_TOOLS.includes(path)) return [];
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.startsWith('cli') ? [path] : [];
  });
}

/** Code without comments (line comments and JSDoc/blocks), line numbers kept. */
function codeLines(text: string): string[] {
  const withoutBlocks = text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ''));
  return withoutBlocks.split('\n').map((line) => line.replace(/(^|\s)\/\/.*$/, ''));
}

describe('client code is web-standard', () => {
  it('uses no Buffer, process, require or run-time node: import outside the simulator, the CLI and the Node fast path', () => {
    const files = sources('src');
    expect(files.length).toBeGreaterThan(30);
    const found: string[] = [];
    for (const file of files) {
      codeLines(readFileSync(file, 'utf8')).forEach((line, index) => {
        // A word in a message ('claimed by another process') is not a use of the global.
        const code = line.replace(/'(?:[^'\\]|\\.)*'/g, (literal) =>
          literal.startsWith("'node:") ? literal : "''",
        );
        for (const [pattern, what] of NODE_ONLY) {
          if (pattern.test(code)) found.push(`${file}:${index + 1} uses ${what}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
