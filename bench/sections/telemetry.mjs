/**
 * Tracing cost: the SDK with `telemetry: otel()` (no-op exporters: clients/sdk-otel.mjs)
 * against the SDK without it, in the same rounds of the throughput child (fresh process
 * per client and round, order alternating). The ratio is the median of same-round ratios;
 * the target (issue 14) is 0.85x or better. Beside the rate, the CPU the client process
 * spent per call (µs, user + system) and its ratio (untraced / traced): on a shared
 * machine the CPU a call costs moves far less than the rate does.
 *
 * With BENCH_COMPARE=<another checkout, built>, that build's client and `otel()` run in
 * the same rounds (its own ratio against its untraced client): before and after a change.
 *
 * Part of `npm run bench`; alone, after `npm run build`:
 * `node --expose-gc bench/section.mjs telemetry` (or `node bench/sections/telemetry.mjs`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareBuild, plan } from '../lib/config.mjs';
import { runMeasured, startServer } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';
import { int, ratio, table } from '../lib/table.mjs';
import { workloads } from './throughput.mjs';

/** Traced client -> its untraced twin. */
const pairs = { 'sdk-otel': 'sdk' };
// A build from before `momo-partner-sdk/otel` existed is left out.
if (compareBuild && existsSync(`${compareBuild}/dist/otel.js`)) {
  pairs['sdk-otel-compare'] = 'sdk-compare';
}
// BENCH_TELEMETRY_FLOOR=1: where the cost comes from (clients/otel-floor.mjs).
if (process.env.BENCH_TELEMETRY_FLOOR === '1') {
  pairs['raw-http-otel'] = 'raw-http';
  pairs['raw-http-span'] = 'raw-http';
  pairs['raw-http-record'] = 'raw-http';
  pairs['sdk-noop-port'] = 'sdk';
  pairs['sdk-providers'] = 'sdk';
}
const kinds = [...new Set(Object.entries(pairs).flat())];
const labels = {
  'sdk-otel': 'this',
  'sdk-otel-compare': 'BENCH_COMPARE',
  'raw-http-otel': 'raw node:http + spans by hand',
  'raw-http-span': 'raw node:http + the span alone',
  'raw-http-record': 'raw node:http + the record alone',
  'sdk-noop-port': 'SDK + a port that records nothing',
  'sdk-providers': 'SDK, OpenTelemetry providers loaded',
};
export const telemetryTarget = 0.85;

export async function measureTelemetry(node, server) {
  const rounds = [];
  const childPlan = JSON.stringify({
    sequentialOps: plan.sequentialOps,
    parallelOps: plan.parallelOps,
    concurrency: plan.concurrency,
  });
  for (let r = 0; r < plan.rounds; r++) {
    const round = {};
    for (const kind of r % 2 === 0 ? kinds : [...kinds].reverse()) {
      await server.reset(plan.settleMs);
      round[kind] = await runMeasured('throughput.mjs', [kind, server.url, childPlan], {
        execPath: node.execPath,
        server,
        timeoutMs: 180_000,
      });
    }
    rounds.push(round);
  }
  const rows = [];
  for (const [traced, untraced] of Object.entries(pairs)) {
    for (const workload of Object.keys(workloads)) {
      const of = (kind) => rounds.map((round) => round[kind]);
      const cpu = (kind) => of(kind).map((result) => result.cpuPerOp?.[workload] ?? Number.NaN);
      rows.push({
        build: labels[traced],
        workload,
        without: median(of(untraced).map((result) => result[workload])),
        traced: median(of(traced).map((result) => result[workload])),
        ratio: median(rounds.map((round) => round[traced][workload] / round[untraced][workload])),
        cpuWithout: median(cpu(untraced)),
        cpuTraced: median(cpu(traced)),
        cpuRatio: median(
          rounds.map(
            (round) => round[untraced].cpuPerOp?.[workload] / round[traced].cpuPerOp?.[workload],
          ),
        ),
      });
    }
  }
  return { rows, rounds: rounds.length };
}

export function printTelemetry(node, { rows, rounds }) {
  const builds = new Set(rows.map((row) => row.build)).size;
  table(
    `Tracing cost, ${node.label}: telemetry: otel() with no-op exporters vs none, medians of ${rounds} alternating rounds`,
    [
      ...(builds > 1 ? ['traced client'] : []),
      'workload',
      'SDK ops/s',
      'SDK + otel() ops/s',
      'ratio',
      `target >= ${telemetryTarget}x`,
      'CPU µs/call, untraced',
      'traced',
      'CPU ratio',
    ],
    rows.map((row) => [
      ...(builds > 1 ? [row.build] : []),
      workloads[row.workload],
      int(row.without),
      int(row.traced),
      ratio(row.ratio),
      row.ratio >= telemetryTarget ? 'PASS' : 'MISS',
      row.cpuWithout.toFixed(1),
      row.cpuTraced.toFixed(1),
      ratio(row.cpuRatio),
    ]),
    { left: builds > 1 ? [0, 1] : [0] },
  );
}

// Run alone: this Node only, against a fresh bench server.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  try {
    const node = { label: `node ${process.versions.node}`, execPath: process.execPath };
    printTelemetry(node, await measureTelemetry(node, server));
  } finally {
    server.stop();
  }
}
