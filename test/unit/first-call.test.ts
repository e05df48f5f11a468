import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startLoopbackService } from '../support/loopback-service';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../fixtures/first-call.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

describe('the first call in a fresh process, on the Node path', () => {
  it("goes over node:http only: Node's fetch stack (Response, Headers) is never loaded", async () => {
    const service = await startLoopbackService({
      'GET *': (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ status: 'SUCCESSFUL', amount: '5', currency: 'EUR' }));
      },
    });
    try {
      const { stdout } = await run(tsx, [script], {
        env: { ...process.env, MOMO_TEST_OPTIONS: JSON.stringify(service.options) },
        timeout: 15_000,
      });
      const seen = JSON.parse(stdout) as { status: string; fetchModules: string[] };
      expect(seen.status).toBe('SUCCESSFUL');
      expect(service.seen.map((s) => s.path)).toEqual([
        '/disbursement/token/',
        expect.stringMatching(/^\/disbursement\/v1_0\/deposit\//),
      ]);
      expect(seen.fetchModules).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
