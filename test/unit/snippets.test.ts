import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { asModule, collectSnippets, writeSnippetFiles } from '../support/snippets';

// Every ```ts block of README.md and docs/*.md type-checks against the SDK's own types,
// under the project's strict compiler options.
const root = resolve(import.meta.dirname, '../..');
const snippets = collectSnippets(root);

describe('README.md and docs/*.md snippets', () => {
  it('are many, and each compiles', { timeout: 120_000 }, () => {
    expect(snippets.length).toBeGreaterThan(20);
    const files: Record<string, string> = {};
    snippets.forEach((snippet, i) => {
      files[`snippet-${i}.ts`] = asModule(snippet);
    });
    const dir = writeSnippetFiles(root, '.scratch/doc-snippets', files);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('tsconfig.json unreadable');
    const rootNames = [
      ...Object.keys(files).map((name) => join(dir, name)),
      join(root, 'test/support/snippet-globals.d.ts'),
    ];
    const program = ts.createProgram(rootNames, { ...config.options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(dir))
      .map((d) => {
        const file = d.file as ts.SourceFile;
        const first = file.text.split('\n', 1)[0] ?? '';
        const { line } = file.getLineAndCharacterOfPosition(d.start ?? 0);
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        return `${first.slice(3)} +${line - 3}: ${message}`;
      });
    expect(problems).toEqual([]);
  });
});
