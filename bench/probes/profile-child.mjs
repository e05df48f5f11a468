/**
 * A CPU profile of one throughput child (argv: kind [ops]), against a fresh bench server:
 *   node bench/probes/profile-child.mjs sdk-otel 6000
 * writes a .cpuprofile into BENCH_PROFILE_DIR (default: the OS temp folder) and prints the
 * child's figures (ops/s and CPU µs per call). BENCH_NODE_FLAGS adds Node flags (--trace-gc).
 */
import { tmpdir } from 'node:os';
import { runMeasured, startServer } from '../lib/processes.mjs';

const [kind = 'sdk-otel', ops = '6000'] = process.argv.slice(2);
const dir = process.env.BENCH_PROFILE_DIR ?? tmpdir();
const server = await startServer();
try {
  await server.reset(5_000);
  const plan = {
    sequentialOps: Number(ops),
    parallelOps: Number(ops),
    warmupOps: 2_000,
    concurrency: 32,
  };
  const result = await runMeasured('throughput.mjs', [kind, server.url, JSON.stringify(plan)], {
    execPath: process.execPath,
    execArgv: [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-name=${kind}.cpuprofile`,
      ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ],
    server,
    timeoutMs: 600_000,
  });
  console.log(kind, JSON.stringify(result));
} finally {
  server.stop();
}
