import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BullWorkerInput } from './workers/bullmq-worker';

export type { BullWorkerInput } from './workers/bullmq-worker';

const WORKER = fileURLToPath(new URL('./workers/bullmq-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Message = { type: 'ready'; pid: number } | { type: 'completed'; count: number };

/** A BullMQ worker in a child process (test/support/workers/bullmq-worker.ts, run by tsx). */
export class BullWorkerProcess {
  /** Jobs it completed. */
  completed = 0;
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  readonly #exited: Promise<void>;

  constructor(input: BullWorkerInput) {
    this.#child = fork(WORKER, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    this.#ready = new Promise((resolve, reject) => {
      this.#child.on('message', (m: Message) => {
        if (m.type === 'ready') resolve();
        if (m.type === 'completed') this.completed = m.count;
      });
      this.#exited.then(() => reject(new Error('the worker exited before it was ready')));
    });
    this.#child.send(input);
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  /** SIGKILL, for real: its jobs stay locked in BullMQ, its claims in the store. */
  async kill(): Promise<void> {
    if (this.alive()) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  /** SIGSTOP: frozen with its jobs and claims (past its lock, BullMQ calls them stalled). */
  stop(): void {
    this.#child.kill('SIGSTOP');
  }

  /** SIGCONT: it goes on where it was, as a paused VM or a long GC would. */
  resume(): void {
    this.#child.kill('SIGCONT');
  }

  async close(): Promise<void> {
    if (!this.alive()) return;
    this.resume();
    const overdue = setTimeout(() => this.#child.kill('SIGKILL'), 10_000);
    this.#child.send('exit');
    await this.#exited;
    clearTimeout(overdue);
  }

  alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }
}
