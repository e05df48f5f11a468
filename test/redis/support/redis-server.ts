import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';

function installed(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether `redis-server` is on the PATH. */
export const hasRedisServer = installed('redis-server');
/** Whether `redis-cli` is on the PATH (it joins the test clusters). */
export const hasRedisCli = installed('redis-cli');

/**
 * `describe` for suites that need a real redis-server (and, with `cli`, redis-cli). In
 * CI (`CI` set) a missing one is a failure, never a skip; locally the suite is skipped
 * with a clear message.
 */
export function describeWithRedis(name: string, suite: () => void, needs = { cli: false }): void {
  const missing = [
    ...(hasRedisServer ? [] : ['redis-server']),
    ...(needs.cli && !hasRedisCli ? ['redis-cli'] : []),
  ];
  if (missing.length === 0) {
    describe(name, suite);
    return;
  }
  const what = missing.join(' and ');
  if (process.env.CI) {
    describe(name, () => {
      it(`needs ${what} (CI installs them from Debian: apt-get install redis-server redis-tools)`, () => {
        throw new Error(`${what} not installed on this CI machine`);
      });
    });
    return;
  }
  console.warn(
    `[skipped] ${name}: ${what} not installed (apt-get install redis-server redis-tools)`,
  );
  describe.skip(name, suite);
}

/** A redis-server of our own on a free loopback port, without persistence. */
export class RedisServer {
  readonly port: number;
  readonly #dir: string;
  #process: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
    this.#dir = mkdtempSync(join(tmpdir(), 'momo-redis-'));
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (or restarts, on the same port) and resolves once it accepts connections. */
  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''];
    args.push('--appendonly', 'no', '--dir', this.#dir);
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#process = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => fail(new Error(`redis-server did not start:\n${output}`)),
        10_000,
      );
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error);
      };
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', fail);
      child.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output}`)));
    });
    child.removeAllListeners('exit');
    child.stdout?.resume();
  }

  /** Stops it (SIGTERM) and waits for the process to end. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Stops it and removes its working directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
