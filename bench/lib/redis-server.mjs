/**
 * A redis-server of the bench's own on a free loopback port, no persistence, in a temp
 * folder. Rejects when redis-server is not installed (callers skip with a message).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.mjs';

export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'momo-bench-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.stdout.on('data', (d) => /Ready to accept/.test(String(d)) && resolve());
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  child.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
