import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redis-server';

const run = promisify(execFile);

/**
 * A real 3-master Redis Cluster of our own on free loopback ports (client and bus ports
 * both chosen free), without persistence, joined with `redis-cli --cluster create`.
 */
export class RedisCluster {
  readonly ports: number[];
  readonly #dir: string;
  readonly #processes: ChildProcess[] = [];

  private constructor(ports: number[]) {
    this.ports = ports;
    this.#dir = mkdtempSync(join(tmpdir(), 'momo-cluster-'));
  }

  static async start(masters = 3): Promise<RedisCluster> {
    const ports: number[] = [];
    while (ports.length < masters * 2) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const cluster = new RedisCluster(ports.slice(0, masters));
    try {
      await cluster.#start(ports.slice(masters));
    } catch (error) {
      await cluster.dispose();
      throw error;
    }
    return cluster;
  }

  /** `host:port` of each master, as both libraries take them. */
  get nodes(): { host: string; port: number }[] {
    return this.ports.map((port) => ({ host: '127.0.0.1', port }));
  }

  get urls(): string[] {
    return this.ports.map((port) => `redis://127.0.0.1:${port}`);
  }

  async #start(busPorts: number[]): Promise<void> {
    await Promise.all(this.ports.map((port, i) => this.#node(port, busPorts[i] as number)));
    const addresses = this.ports.map((port) => `127.0.0.1:${port}`);
    await run(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
      { timeout: 30_000 },
    );
    // Every node must know every slot before a client connects.
    for (const deadline = Date.now() + 20_000; ; ) {
      const states = await Promise.all(
        this.ports.map((port) =>
          run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'cluster', 'info']).then(
            ({ stdout }) => /cluster_state:ok/.test(stdout),
          ),
        ),
      );
      if (states.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error('the cluster did not reach cluster_state:ok');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async #node(port: number, busPort: number): Promise<void> {
    const args = ['--port', String(port), '--cluster-port', String(busPort)];
    args.push('--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--save', '');
    args.push('--appendonly', 'no', '--dir', this.#dir);
    args.push('--cluster-config-file', join(this.#dir, `nodes-${port}.conf`));
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#processes.push(child);
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`node did not start:\n${output}`)), 10_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
    child.removeAllListeners('exit');
    child.stdout?.resume();
  }

  /** Stops every node and removes their files. */
  async dispose(): Promise<void> {
    await Promise.all(
      this.#processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL'); // nothing to keep: no persistence
          }),
      ),
    );
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
