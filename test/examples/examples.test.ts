import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Each example, and the line it prints when every check passed. */
const EXAMPLES = [
  ['disbursement', 'Disbursement example passed.'],
  ['collection', 'Collection example passed.'],
  ['remittance', 'Remittance example passed.'],
  ['consent', 'Consent example passed.'],
  ['callbacks', 'Callbacks example passed.'],
  ['callback-adapters', 'Callback adapters example passed.'],
  ['ghana', 'Ghana example passed.'],
] as const;

/** Generous: the examples run side by side and the consent flows poll once a second. */
const TIMEOUT_MS = 90_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file],
      { timeout: TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.concurrent('examples/', () => {
  for (const [name, success] of EXAMPLES) {
    it(
      `${name}.ts runs against the loopback simulator and exits 0`,
      async () => {
        const { code, stdout, stderr } = await run(`examples/${name}.ts`);
        expect({ code, stderr, stdout }).toMatchObject({ code: 0 });
        expect(stdout).toContain(success);
        expect(stdout).not.toMatch(/^ +FAIL /m);
        expect(`${stdout}${stderr}`).not.toMatch(/sim-subscription-key|sim-api-key/);
      },
      TIMEOUT_MS + 5_000,
    );
  }
});
