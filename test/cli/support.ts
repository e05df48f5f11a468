import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSimulator,
  type ListeningServer,
  type Simulator,
  type SimulatorOptions,
} from 'momo-partner-sdk/testing';
import { build } from 'tsup';
import { afterAll, beforeAll, expect } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the bundle finds ky, uuid and zod in node_modules.
const outDir = join(root, 'node_modules', '.cache', 'momo-cli-test', randomUUID());
let built: Promise<string> | undefined;

/**
 * The CLI bundled once per test file the way tsup builds dist/cli.js: a process then
 * starts in a fraction of the time `node --import tsx` takes (many runs per file).
 */
function cliScript(): Promise<string> {
  built ??= build({
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    outDir,
    target: 'node20',
    platform: 'node',
    silent: true,
    config: false,
  }).then(() => join(outDir, 'cli.js'));
  return built;
}

afterAll(() => rm(outDir, { recursive: true, force: true }));

export interface CliRun {
  code: number | null;
  /** The signal that ended the process (`'SIGKILL'` after `kill('SIGKILL')`), else null. */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI child process running: the process itself (to kill), and its end. */
export interface CliChild {
  child: ChildProcess;
  /** Resolves once it exited (by itself or killed), with its exit code or signal. */
  exited: Promise<CliRun>;
}

/**
 * Starts the CLI as a real child process (the bundle of src/cli/index.ts), with only the
 * MOMO_* variables given here (none inherited), in `cwd` (default the repository).
 */
export async function spawnCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = root,
): Promise<CliChild> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('MOMO_')),
  );
  const child = spawn(process.execPath, [await cliScript(), ...args], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, exited };
}

/** Runs the CLI as a real child process (see `spawnCli`) and waits for it to exit. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
  cwd = root,
): Promise<CliRun> {
  const { child, exited } = await spawnCli(args, env, cwd);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const { signal: _, ...run } = await Promise.race([exited, timedOut]);
    return run;
  } finally {
    clearTimeout(timer);
  }
}

/** A long-running CLI child (the simulator): its output so far, and a way to stop it. */
export async function startCli(args: string[]): Promise<{
  out: () => string;
  stop: () => Promise<number | null>;
}> {
  const child = spawn(process.execPath, [await cliScript(), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    out: () => stdout,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A simulator served on loopback in the test process, for the CLI to call (`options` added). */
export function useLoopbackSimulator(options: SimulatorOptions = {}): {
  sim: Simulator;
  url: () => string;
  /** MOMO_* variables for the simulator's fixed credentials. */
  env: () => Record<string, string>;
} {
  // Credentials unlike any word of the CLI's output, so that a leak cannot hide.
  const sim = createSimulator({
    settleMs: 30,
    subscriptionKey: 'cli-subscription-key-5b1e0c',
    apiUser: { id: '6a0d3c1e-2f4b-4a7c-9e8d-0b1c2d3e4f50', key: 'cli-api-key-93d7f1' },
    ...options,
  });
  let server: ListeningServer | undefined;
  beforeAll(async () => {
    server = await sim.listen({ port: 0 });
  });
  afterAll(() => server?.close());
  const url = () => server?.url ?? '';
  const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
  return {
    sim,
    url,
    env: () => ({
      MOMO_BASE_URL: url(),
      MOMO_TARGET_ENVIRONMENT: targetEnvironment,
      MOMO_SUBSCRIPTION_KEY: subscriptionKey,
      MOMO_API_USER: apiUser.id,
      MOMO_API_KEY: apiUser.key,
    }),
  };
}

/** Neither output stream holds any of these values. */
export function expectNoneOf(run: CliRun, secrets: string[]): void {
  for (const secret of secrets) {
    expect(run.stdout, 'stdout').not.toContain(secret);
    expect(run.stderr, 'stderr').not.toContain(secret);
  }
}
