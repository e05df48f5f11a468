/**
 * The engines bench's processes (bench/engines.mjs): a child script answers its parent's
 * calls by name (`serve`), the parent forks it and calls it (`forkChild`), and may
 * SIGKILL it (a worker crash) at any moment.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** In a child: answers `{ id, method, input }` with `{ id, result }` or `{ id, error }`. */
export function serve(handlers) {
  process.on('message', async ({ id, method, input }) => {
    try {
      const handler = handlers[method];
      if (!handler) throw new Error(`no such method: ${method}`);
      process.send?.({ id, result: await handler(input) });
    } catch (error) {
      process.send?.({ id, error: String(error?.stack ?? error) });
    }
  });
}

/** Forks `script` (relative to this folder) with IPC; its calls resolve with the child's results. */
export function forkChild(script) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pending = new Map();
  let nextId = 0;
  child.on('message', ({ id, result, error }) => {
    const waiter = pending.get(id);
    if (!waiter) return;
    pending.delete(id);
    if (error) waiter.reject(new Error(error));
    else waiter.resolve(result);
  });
  exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${script} exited`));
    pending.clear();
  });
  return {
    pid: child.pid,
    call(method, input) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        child.send({ id, method, input });
      });
    },
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    /** Asks it to close (`close` handler), SIGKILL after `graceMs`. */
    async close(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const overdue = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await Promise.race([this.call('close').catch(() => {}), exited]);
      await exited;
      clearTimeout(overdue);
    },
  };
}
