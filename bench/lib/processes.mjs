/**
 * Child processes of the bench: the server (forked once, controlled over IPC), measured
 * children (forked per measurement, talking to the server through the bench), and plain
 * children without IPC (an IPC channel would keep a process alive, or cost start-up time).
 */
import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { favourProvider } from './provider-priority.mjs';

/** BENCH_VERBOSE=1 passes the measured children's stderr through as it comes. */
const verbose = process.env.BENCH_VERBOSE === '1';
const here = (name) => fileURLToPath(new URL(`../${name}`, import.meta.url));

/** Forks the bench server; `control(type, extra)` sends it a message and awaits the reply. */
export async function startServer() {
  const child = fork(here('server.mjs'), [], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  const pending = new Map();
  let nextId = 0;
  const port = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.port);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    });
  });
  child.removeAllListeners('exit');
  const control = (type, extra = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ type, id, ...extra });
    });
  return {
    url: `http://127.0.0.1:${port}`,
    /** `arrivals`: note when each creating request arrives (read by `arrivals()`). */
    reset: (settleMs, { arrivals = false } = {}) => control('reset', { settleMs, arrivals }),
    stats: async () => (await control('stats')).stats,
    /** referenceId -> arrival (performance.timeOrigin + performance.now()), since reset. */
    arrivals: async () => (await control('arrivals')).arrivals,
    stop: () => {
      child.disconnect();
    },
  };
}

/**
 * Forks `script` (under `execPath`) and resolves with the value it sends as
 * {type:'result', value}. Its {type:'server', op, settleMs} messages are relayed to the
 * server. Rejects, with the child's stderr, if it exits without a result or overruns.
 */
export function runMeasured(script, args, { execPath, execArgv = [], server, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = fork(here(script), args.map(String), {
      execPath,
      execArgv,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let stderr = '';
    let result;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (verbose) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('message', async (message) => {
      if (message.type === 'result') result = message.value;
      if (message.type === 'server') {
        const reply =
          message.op === 'reset' ? await server.reset(message.settleMs) : await server.stats();
        child.send({ type: 'server', reply });
      }
    });
    // 'close' (not 'exit'): every IPC message and stderr chunk has arrived by then.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (result !== undefined) return resolve(result);
      const why = signal ? `killed (${signal})` : `exit code ${code}`;
      reject(new Error(`${script} ${args.join(' ')}: ${why}\n${stderr.trim().slice(-2_000)}`));
    });
  });
}

/**
 * Forks a provider script of the bench (`rate-limited-server.mjs`, `batch-server.mjs`),
 * at a higher priority (lib/provider-priority.mjs),
 * which sends {type:'ready', port} once listening and answers {type, id} with
 * {type, id, stats}; `reset()` and `stats()` resolve with its counters.
 */
export async function forkProvider(script, args) {
  const child = fork(here(script), args.map(String), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  favourProvider(child.pid);
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    child.once('message', (message) => resolve(message.port));
  });
  child.removeAllListeners('exit');
  let nextId = 0;
  const control = (type) =>
    new Promise((resolve) => {
      const id = nextId++;
      const onMessage = (message) => {
        if (message.id !== id) return;
        child.off('message', onMessage);
        resolve(message.stats);
      };
      child.on('message', onMessage);
      child.send({ type, id });
    });
  return {
    url: `http://127.0.0.1:${port}`,
    reset: () => control('reset'),
    stats: () => control('stats'),
    stop: () => child.disconnect(),
  };
}

/** Inside a measured child: asks the bench to reset the server (or read its stats). */
export function askServer(op, settleMs) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message.type !== 'server') return;
      process.off('message', onMessage);
      resolve(message.reply);
    };
    process.on('message', onMessage);
    process.send({ type: 'server', op, settleMs });
  });
}

/** Inside a measured child: hands the result back and leaves. */
export function report(value) {
  process.send({ type: 'result', value }, () => process.exit(0));
}

/**
 * Spawns `execPath args` without IPC and resolves with its exit code, stdout, stderr and
 * wall time (ms, spawn to exit); kills it after `timeoutMs` (then `timedOut` is true).
 */
export function runPlain(execPath, args, { timeoutMs, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      resolve({ code, signal, stdout, stderr, wallMs, timedOut });
    });
  });
}

export const scriptPath = here;
