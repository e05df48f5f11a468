import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** The demo's last step leaves a 5 s poll timer pending after its callback-ended wait. */
const TIMEOUT_MS = 90_000;

describe('npm run demo', () => {
  it(
    'runs the main job end to end on loopback and exits 0',
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'examples/demo.ts'],
        { timeout: TIMEOUT_MS },
      );
      expect(stdout).toContain('Demo passed: every step behaved.');
      expect(stdout).not.toMatch(/^ +FAIL /m);
      for (const step of ['== 7.', '== 8.', '== 9.']) expect(stdout).toContain(step);
      expect(stdout).toContain('ok   transfer with consent SUCCESSFUL');
      expect(stdout).toContain('ok   woken by the callback before the first poll');
      expect(stdout).not.toMatch(/sim-subscription-key|sim-api-key/);
    },
    TIMEOUT_MS,
  );
});
