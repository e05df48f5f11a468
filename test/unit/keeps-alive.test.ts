import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startLoopbackService } from '../support/loopback-service';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../fixtures/pending-wait.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

describe('a pending wait', () => {
  it('keeps a child process alive until the operation is final', async () => {
    const settledAt = Date.now() + 1_500;
    const service = await startLoopbackService({
      'GET *': (_req, res) => {
        res.setHeader('content-type', 'application/json');
        const status = Date.now() < settledAt ? 'PENDING' : 'SUCCESSFUL';
        res.end(JSON.stringify({ status, amount: '5', currency: 'EUR' }));
      },
    });
    try {
      const options = { ...service.options, polling: { initialDelayMs: 200, maxDelayMs: 400 } };
      const { stdout } = await run(tsx, [script], {
        env: { ...process.env, MOMO_TEST_OPTIONS: JSON.stringify(options) },
        timeout: 15_000,
      });
      expect(stdout.trim()).toBe('final SUCCESSFUL');
      expect(Date.now()).toBeGreaterThanOrEqual(settledAt);
    } finally {
      await service.close();
    }
  });
});
