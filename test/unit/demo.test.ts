import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('npm run demo', () => {
  it('runs the main job end to end on loopback and exits 0', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/demo.ts'],
      {
        timeout: 60_000,
      },
    );
    expect(stdout).toContain('Demo passed: every step behaved.');
    expect(stdout).not.toMatch(/^ +FAIL /m);
    expect(stdout).not.toMatch(/sim-subscription-key|sim-api-key/);
  }, 60_000);
});
