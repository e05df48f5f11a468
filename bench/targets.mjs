/**
 * The issues' targets (issues 7, 14, 25, 26, 34 and 38) against what this run measured, per Node version.
 * Informative: a MISS is printed, never turned into a failing exit code.
 */
import { limits, targets as t } from './lib/config.mjs';
import { dec, int, ratio, table } from './lib/table.mjs';
import { batchTargets } from './sections/batch-report.mjs';
import { postgresTargets } from './sections/postgres.mjs';
import { subscriptionsTargets } from './sections/subscriptions-report.mjs';
import { tracingTargets } from './sections/telemetry.mjs';

const ALLOWED_HTTP_LIBRARIES = ['ky'];

/** A cell: PASS/MISS and the measured value, or why nothing was measured. */
function check(value, pass, shown) {
  if (value === undefined || Number.isNaN(value)) return '-- not measured';
  return `${pass(value) ? 'PASS' : 'MISS'} ${shown(value)}`;
}

const runOf = (waits, n) => waits.runs.find((run) => run.n === n && !run.error);

/** One row per target: [target, cell for each node]. */
export function checkTargets(perNode, bundles) {
  const rows = [
    [
      `32-way lookups >= ${t.lookups32VsHttp}x raw node:http`,
      (r) => r.throughput.rows.sdk.lookups.vsHttp,
      (v) => v >= t.lookups32VsHttp,
      ratio,
    ],
    [
      `32-way creating calls >= ${t.creates32VsHttp}x raw node:http`,
      (r) => r.throughput.rows.sdk.creates.vsHttp,
      (v) => v >= t.creates32VsHttp,
      ratio,
    ],
    [
      `first call in a fresh process <= ${t.firstCallVsHttp}x raw node:http's`,
      (r) => r.imports['sdk-call'].ms / r.imports['http-call'].ms,
      (v) => v <= t.firstCallVsHttp,
      ratio,
    ],
    [
      '32-way creating calls >= 1.0x raw fetch',
      (r) => r.throughput.rows.sdk.creates.vsFetch,
      (v) => v >= t.creates32,
      ratio,
    ],
    [
      '32-way lookups >= 0.85x raw fetch',
      (r) => r.throughput.rows.sdk.lookups.vsFetch,
      (v) => v >= t.lookups32,
      ratio,
    ],
    [
      'sequential lookups >= 0.85x raw fetch',
      (r) => r.throughput.rows.sdk.sequential.vsFetch,
      (v) => v >= t.sequential,
      ratio,
    ],
    // Issue 38 (DESIGN 10): every Node version, from the tracing section.
    ...tracingTargets().map(([name, measure, pass, shown]) => [
      name,
      (r) => measure(r.tracing),
      pass,
      shown,
    ]),
    [
      '10,000 waits: all resolve',
      (r) => runOf(r.waits, 10_000)?.resolved,
      (v) => v === 10_000,
      int,
    ],
    [
      `10,000 waits: peak RSS growth <= ${t.rss10kMB} MB`,
      (r) => runOf(r.waits, 10_000)?.peakRssGrowthMB,
      (v) => v <= t.rss10kMB,
      (v) => `${int(v)} MB`,
    ],
    [
      `5,000 waits: peak RSS growth <= ${t.rss5kMB} MB`,
      (r) => runOf(r.waits, 5_000)?.peakRssGrowthMB,
      (v) => v <= t.rss5kMB,
      (v) => `${int(v)} MB`,
    ],
    ['50,000 waits complete', (r) => runOf(r.waits, 50_000)?.resolved, (v) => v === 50_000, int],
    [
      `peak open sockets <= maxSockets (${limits.maxSockets}), every wait run`,
      (r) => maxPeakOpen(r.waits),
      (v) => v <= limits.maxSockets,
      int,
    ],
    [
      `10,000 waits: lookups per operation <= ${t.lookupsPerOp}`,
      (r) => lookupsPerOp(runOf(r.waits, 10_000)),
      (v) => v <= t.lookupsPerOp,
      (v) => dec(v, 2),
    ],
    [
      `idle pending wait after GC <= ${t.idleWaitKB} KB`,
      (r) => r.waits.idle.perWaitKB,
      (v) => v <= t.idleWaitKB,
      (v) => `${dec(v, 2)} KB`,
    ],
    [
      'pending waits keep the process alive',
      (r) => (r.waits.keepAlive.ok ? 1 : 0),
      (v) => v === 1,
      (v) => (v ? 'exit 0 after result' : 'exited early or hung'),
    ],
    [
      `import in a fresh process <= ${t.importMs} ms`,
      (r) => r.imports.sdk.ms,
      (v) => v <= t.importMs,
      (v) => `${dec(v)} ms`,
    ],
    [
      `main entry <= ${t.mainEntryKB} KB min+gzip`,
      () => bundles.main.gzipBytes / 1024,
      (v) => v <= t.mainEntryKB,
      (v) => `${dec(v)} KB`,
    ],
    [
      'no HTTP library but ky in the main entry',
      () => foreignHttp(bundles).length,
      (v) => v === 0,
      () => foreignHttp(bundles).join(', ') || 'ky only',
    ],
    // Issue 25: measured on the first Node version only (sections/batch.mjs).
    ...batchTargets().map(([name, measure, pass, shown]) => [
      name,
      (r) => measure(r.batch),
      pass,
      shown,
    ]),
    // Issue 26: measured on the first Node version only (sections/postgres.mjs).
    ...postgresTargets().map(([name, measure, pass, shown]) => [
      name,
      (r) => measure(r.postgres),
      pass,
      shown,
    ]),
    // Issue 34: measured on the first Node version only (sections/subscriptions.mjs).
    ...subscriptionsTargets().map(([name, measure, pass, shown]) => [
      name,
      (r) => measure(r.subscriptions),
      pass,
      shown,
    ]),
  ];
  return rows.map(([name, measure, pass, shown]) => [
    name,
    ...perNode.map((results) => check(safely(measure, results), pass, shown)),
  ]);
}

function safely(measure, results) {
  try {
    return measure(results);
  } catch {
    return undefined; // the section that measures it crashed or did not run
  }
}

function maxPeakOpen(waits) {
  const peaks = [...waits.runs, waits.idle]
    .filter((run) => !run.error)
    .map((run) => run.server.peakOpen);
  return peaks.length ? Math.max(...peaks) : undefined;
}

const lookupsPerOp = (run) => (run ? run.server.requests.lookup / run.n : undefined);

const foreignHttp = (bundles) =>
  bundles.main.httpLibraries.filter((name) => !ALLOWED_HTTP_LIBRARIES.includes(name));

export function printTargets(nodes, perNode, bundles) {
  table(
    'Targets (issues 7, 14, 25, 26, 34 and 38), SDK on its default transport; informative, a MISS does not fail the run',
    ['target', ...nodes.map((node) => node.label)],
    checkTargets(perNode, bundles),
    { left: [0, ...nodes.map((_, i) => i + 1)] },
  );
}
