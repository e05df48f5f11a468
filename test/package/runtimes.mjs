/**
 * Other runtimes, installed from npm into node_modules/.cache/momo-runtimes on first use
 * (the `bun`, `deno` and `node-<platform>-<arch>` packages ship their binaries). A
 * runtime that cannot be installed or does not start is reported as skipped, with why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const nodePackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

export const RUNTIMES = [
  { name: 'Node 22', dir: 'node22', spec: `${nodePackage}@22`, bin: `${nodePackage}/bin/node` },
  { name: 'Node 24', dir: 'node24', spec: `${nodePackage}@24`, bin: `${nodePackage}/bin/node` },
  { name: 'Bun', dir: 'bun', spec: 'bun@1', bin: '.bin/bun' },
  { name: 'Deno', dir: 'deno', spec: 'deno@2', bin: '.bin/deno' },
];

/** The runtime's binary and version, or `{ skip: reason }`. */
export function locate(root, runtime) {
  const prefix = join(root, 'node_modules', '.cache', 'momo-runtimes', runtime.dir);
  const bin = join(prefix, 'node_modules', runtime.bin);
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    try {
      execFileSync(
        'npm',
        [
          'install',
          runtime.spec,
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
        ],
        { stdio: 'pipe', timeout: 240_000 },
      );
    } catch (error) {
      return { skip: `npm install ${runtime.spec} failed: ${firstLine(error)}` };
    }
    if (!existsSync(bin)) return { skip: `npm install ${runtime.spec} left no ${runtime.bin}` };
  }
  try {
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    return { bin, version: version.trim().split('\n')[0] };
  } catch (error) {
    return { skip: `${bin} does not run here: ${firstLine(error)}` };
  }
}

/** What each runtime runs in the consumer: [label, args]. */
export function smokeRuns(runtime, bin) {
  if (runtime.name === 'Deno') {
    return [
      ['ESM journey', [bin, 'run', '--allow-all', 'run-esm.mjs']],
      // Importing ./testing must not keep Deno alive (nothing of msw is loaded).
      ['import ./testing exits', [bin, 'run', '--allow-all', 'import-testing.mjs']],
    ];
  }
  return [
    ['ESM journey', [bin, 'run-esm.mjs']],
    ['CJS journey', [bin, 'run-cjs.cjs']],
  ];
}

export const importTestingOnly = `import { createSimulator } from 'momo-partner-sdk/testing';
createSimulator();
console.log('import ./testing ok');
`;

function firstLine(error) {
  const text = String(error?.stderr || error?.message || error);
  return text.trim().split('\n')[0].slice(0, 200);
}
