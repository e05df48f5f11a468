/**
 * The `payouts` command of the built package (dist/cli.js) paying a CSV file, in a child
 * process of its own, with the child's resident memory sampled from outside every 50 ms
 * (/proc/<pid>/status VmRSS: Linux). What a partner runs: the file read as a stream,
 * checked, paid and its results file rewritten as rows end.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentials } from './config.mjs';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;

/** Whether this machine lets the bench read another process's resident memory. */
export const canSampleRss = () => existsSync(`/proc/${process.pid}/status`);

/** A payouts CSV of `rows` rows (unique keys, one transfer each) at `file`. */
export function writePayoutsCsv(file, rows) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('error', reject);
    out.write('key,amount,currency,msisdn,note\n');
    let i = 0;
    const more = () => {
      while (i < rows) {
        const msisdn = `4673${String(i).padStart(8, '0')}`;
        const ok = out.write(`row-${i},1.00,EUR,${msisdn},payroll 2026-11 employee ${i}\n`);
        i++;
        if (!ok) return out.once('drain', more);
      }
      out.end(resolve);
    };
    more();
  });
}

function rssMB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0; // the process has ended
  }
}

/**
 * Runs `payouts <file> --batch <batch> --json` against `provider` with `node`; resolves
 * with its exit code, summary, wall time and peak RSS (MB), or rejects with its stderr.
 */
export function runPayouts(node, provider, { file, batch, stateDir, concurrency }) {
  const env = {
    PATH: process.env.PATH,
    MOMO_BASE_URL: provider.url,
    MOMO_TARGET_ENVIRONMENT: credentials.targetEnvironment,
    MOMO_SUBSCRIPTION_KEY: credentials.subscriptionKey,
    MOMO_API_USER: credentials.apiUser.id,
    MOMO_API_KEY: credentials.apiUser.key,
  };
  const args = [cli, 'payouts', file, '--batch', batch, '--state-dir', stateDir, '--json'];
  args.push('--concurrency', String(concurrency));
  const started = performance.now();
  const child = spawn(node.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peakMB = 0;
  const sampler = setInterval(() => {
    peakMB = Math.max(peakMB, rssMB(child.pid));
  }, 50);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      clearInterval(sampler);
      const elapsedMs = performance.now() - started;
      try {
        const { summary } = JSON.parse(stdout);
        resolve({ code, summary: { ...summary, amounts: undefined }, elapsedMs, peakMB });
      } catch {
        reject(new Error(`payouts exited ${code}: ${stderr.trim().slice(-2_000)}`));
      }
    });
  });
}

/** Where a run keeps its files: `<dir>/<name>.csv` and a state folder of its own. */
export const runFiles = (dir, name) => ({
  file: join(dir, `${name}.csv`),
  batch: `bench-${name}`,
  stateDir: join(dir, `${name}-state`),
});
