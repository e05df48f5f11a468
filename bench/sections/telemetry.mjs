/**
 * Tracing cost: the SDK with `telemetry: otel()` (no-op exporters, every call inside a
 * parent span: clients/sdk-otel.mjs) against the SDK without it, in the same rounds of the
 * throughput child (fresh process per client and round, order alternating). The ratio is
 * the median of same-round ratios; the target (issue 14) is 0.85x or better.
 *
 * Part of `npm run bench`; alone, after `npm run build`: `node bench/sections/telemetry.mjs`.
 */
import { fileURLToPath } from 'node:url';
import { plan } from '../lib/config.mjs';
import { runMeasured, startServer } from '../lib/processes.mjs';
import { median } from '../lib/stats.mjs';
import { int, ratio, table } from '../lib/table.mjs';
import { workloads } from './throughput.mjs';

const kinds = ['sdk', 'sdk-otel'];
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
  const rows = Object.keys(workloads).map((workload) => ({
    workload,
    without: median(rounds.map((round) => round.sdk[workload])),
    traced: median(rounds.map((round) => round['sdk-otel'][workload])),
    ratio: median(rounds.map((round) => round['sdk-otel'][workload] / round.sdk[workload])),
  }));
  return { rows, rounds: rounds.length };
}

export function printTelemetry(node, { rows, rounds }) {
  table(
    `Tracing cost, ${node.label}: telemetry: otel() with no-op exporters vs none, medians of ${rounds} alternating rounds`,
    ['workload', 'SDK ops/s', 'SDK + otel() ops/s', 'ratio', `target >= ${telemetryTarget}x`],
    rows.map((row) => [
      workloads[row.workload],
      int(row.without),
      int(row.traced),
      ratio(row.ratio),
      row.ratio >= telemetryTarget ? 'PASS' : 'MISS',
    ]),
    { left: [0] },
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
