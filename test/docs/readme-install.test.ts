import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// A new partner follows the README from an empty folder: `npm init -y` (which writes
// `"type": "commonjs"`), then the Install block, then a snippet with top-level `await`
// saved as index.js. The Install block must leave a project where that runs.
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The lines of the first ```sh block under "## Install", comments removed. */
function installCommands(): string[] {
  const section = readme.split(/^## Install$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

describe("the README's Install block", () => {
  it('makes an `npm init -y` project run the snippets’ top-level await', async () => {
    // The First payment snippet does await at top level (not inside a function).
    const firstPayment = readme.split(/^## First payment$/m)[1] ?? '';
    expect(firstPayment).toMatch(/^ {2}const payment = await momo\.collection\.requestToPay\(/m);
    const folder = mkdtempSync(join(tmpdir(), 'readme-install-'));
    try {
      await run('npm', ['init', '-y'], { cwd: folder });
      // Installing needs the registry: every other line of the block runs as written.
      for (const command of installCommands().filter((c) => !c.startsWith('npm install'))) {
        const [file, ...args] = command.split(/\s+/) as [string, ...string[]];
        await run(file, args, { cwd: folder });
      }
      expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).type).toBe('module');
      writeFileSync(
        join(folder, 'index.js'),
        'const done = await Promise.resolve("ran");\nconsole.log(done);\n',
      );
      const { stdout } = await run(process.execPath, ['index.js'], { cwd: folder });
      expect(stdout.trim()).toBe('ran');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
