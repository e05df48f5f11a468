import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('../workers/instance.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type Message =
  | { type: 'started' }
  | { type: 'reply'; id: number; result?: unknown; error?: string }
  | { type: 'log'; level: string; message: string }
  | { type: 'event'; name: string; referenceId: string };

/** A partner instance in its own process (a worker script run by tsx). */
export class Instance {
  readonly logs: { level: string; message: string }[] = [];
  readonly events: { name: string; referenceId: string }[] = [];
  readonly #child: ChildProcess;
  readonly #replies = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  #nextId = 0;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (message: Message) => {
      if (message.type === 'log') this.logs.push(message);
      if (message.type === 'event') this.events.push(message);
      if (message.type !== 'reply') return;
      const waiter = this.#replies.get(message.id);
      this.#replies.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
    });
    child.on('exit', (code, signal) => {
      for (const waiter of this.#replies.values()) {
        waiter.reject(new Error(`instance exited (${signal ?? code})`));
      }
      this.#replies.clear();
    });
  }

  /** Starts `worker` (default: test/redis/workers/instance.ts), one that `serveParent`s. */
  static async spawn(worker: string = WORKER): Promise<Instance> {
    const child = fork(worker, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const instance = new Instance(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`instance did not start (${code})`)));
    });
    return instance;
  }

  call<T = unknown>(method: string, input: unknown = {}): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#replies.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#child.send({ id, method, input });
    });
  }

  /** Resolves with the first event of that name (polling, bounded). */
  async event(name: string, withinMs = 10_000): Promise<{ referenceId: string }> {
    for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
      const found = this.events.find((e) => e.name === name);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no '${name}' event within ${withinMs} ms`);
  }

  /** SIGKILL: no clean-up of any kind, as in a crash. */
  kill(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) return resolve();
      this.#child.once('exit', () => resolve());
      this.#child.kill('SIGKILL');
    });
  }

  /** Asks the process to close its connections and exit; kills it if it has not within 5 s. */
  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    const overdue = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    await this.call('close').catch(() => {});
    await exited;
    clearTimeout(overdue);
  }
}

/** Polls `condition` every 10 ms until it holds; throws after `withinMs`. */
export async function until(condition: () => boolean | Promise<boolean>, withinMs = 10_000) {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; ) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`condition not met within ${withinMs} ms`);
}
