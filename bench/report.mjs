/**
 * Prints each section of the bench as a compact table; every row names its baseline.
 */
import { clientKinds, clientLabels } from './clients/index.mjs';
import { limits, plan } from './lib/config.mjs';
import { dec, int, ratio, seconds, table } from './lib/table.mjs';
import { workloads } from './sections/throughput.mjs';

export function printThroughput(node, { rows, rounds }) {
  const body = [];
  for (const [workload, label] of Object.entries(workloads)) {
    const total = workload === 'sequential' ? plan.sequentialOps : plan.parallelOps;
    for (const kind of clientKinds) {
      const cell = rows[kind][workload];
      const base = kind === 'raw-fetch' ? 'baseline' : ratio(cell.vsFetch);
      const vsHttp = kind === 'raw-http' ? 'baseline' : ratio(cell.vsHttp);
      body.push([`${label} (${int(total)})`, clientLabels[kind], int(cell.ops), base, vsHttp]);
    }
  }
  table(
    `Throughput, ${node.label}: loopback server, fresh process per client and round, medians of ${rounds} alternating rounds (ratio = median of same-round ratios)`,
    ['workload (ops per run)', 'client', 'ops/s', 'vs raw fetch', 'vs raw node:http'],
    body,
    { left: [0, 1] },
  );
  for (const kind of clientKinds) {
    if (rows[kind].error) console.log(`  ${clientLabels[kind]} crashed: ${rows[kind].error}`);
  }
}

export function printImports(node, summary) {
  const row = (what, cell, base) => [
    what,
    dec(cell.ms),
    int(cell.wall),
    dec(cell.wallOverNone),
    base,
  ];
  table(
    `Start-up, ${node.label}: fresh process each, medians of ${plan.importRuns} runs (wall = spawn to exit)`,
    ['what', 'in-process ms', 'wall ms', 'wall - empty probe, ms', 'ratio'],
    [
      ['node -e 0 (floor of any process)', '', int(summary.bareWall), '', ''],
      row('empty probe (baseline of the wall deltas)', summary.none, 'baseline'),
      row("await import('momo-partner-sdk')", summary.sdk, ''),
      row(
        'import + first call (getBalance: token, balance)',
        summary['sdk-call'],
        `${ratio(summary['sdk-call'].ms / summary['http-call'].ms)} raw node:http, ${ratio(summary['sdk-call'].ms / summary['fetch-call'].ms)} raw fetch`,
      ),
      row('raw node:http first call (token, balance): baseline', summary['http-call'], 'baseline'),
      row('raw fetch first call (token, balance)', summary['fetch-call'], ''),
      ...(summary['compare-sdk']
        ? [
            row('BENCH_COMPARE build: import', summary['compare-sdk'], ''),
            row(
              'BENCH_COMPARE build: import + first call',
              summary['compare-sdk-call'],
              `${ratio(summary['compare-sdk-call'].ms / summary['http-call'].ms)} raw node:http`,
            ),
          ]
        : []),
    ],
  );
  for (const failure of summary.failures) console.log(`  probe failed: ${failure}`);
}

const kb = (bytes) => dec(bytes / 1024);

export function printBundles(bundles) {
  const row = (what, b, base) => [
    what,
    kb(b.minBytes),
    kb(b.gzipBytes),
    base,
    b.httpLibraries.join(', ') || 'none',
    Object.entries(b.packages)
      .sort((x, y) => y[1] - x[1])
      .map(([name, bytes]) => `${name} ${kb(bytes)}`)
      .join(', '),
  ];
  const vs = (b) => ratio(b.gzipBytes / bundles.baseline.gzipBytes);
  table(
    'Bundle: esbuild --bundle --minify --platform=node (ESM), gzip -9',
    ['entry', 'min KB', 'gzip KB', 'vs raw fetch', 'HTTP libraries in it', 'min KB by package'],
    [
      row('bench raw-fetch client (baseline)', bundles.baseline, 'baseline'),
      row('momo-partner-sdk', bundles.main, vs(bundles.main)),
      row('momo-partner-sdk/testing (msw external)', bundles.testing, vs(bundles.testing)),
    ],
    { left: [0, 4, 5] },
  );
}

export function printWaits(node, { runs, idle, keepAlive }) {
  const body = runs.map((run) => {
    if (run.error) return [int(run.n), 'crashed'];
    const s = run.server;
    return [
      int(run.n),
      `${int(run.resolved)}${run.finished ? '' : ' (unfinished)'}`,
      int(run.peakRssGrowthMB),
      int(s.connections),
      int(s.peakOpen),
      ratio(s.peakOpen / limits.maxSockets),
      dec(s.requests.lookup / run.n, 2),
      seconds(run.lastAcceptedMs),
      seconds(run.lastResolvedMs),
      seconds(run.lagP50Ms),
      seconds(run.lagP99Ms),
      int(s.duplicates),
    ];
  });
  table(
    `Waits, ${node.label}: n deposits issued at once, each awaited with wait() at default polling; the server settles each ${seconds(plan.settleMs)} after accepting it; RSS growth over the warmed-up process`,
    [
      'n',
      'resolved',
      'peak RSS +MB',
      'sockets opened',
      'peak open',
      'vs maxSockets',
      'lookups/op',
      'last 202',
      'last result',
      'lag p50',
      'lag p99',
      '409s',
    ],
    body,
  );
  for (const run of runs) {
    const failures = Object.entries(run.failures ?? {});
    if (failures.length)
      console.log(`  n=${run.n} failures: ${failures.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (run.error) console.log(`  n=${run.n} crashed: ${run.error}`);
  }
  if (idle.error) console.log(`  idle retention: crashed: ${idle.error}`);
  else {
    console.log(
      `  idle pending wait after GC: ${dec(idle.perWaitKB, 2)} KB per wait (${int(idle.accepted)} pending, baseline: the warmed-up client; ${int(idle.server.peakOpen)} sockets open at peak)`,
    );
  }
  const how = keepAlive.timedOut
    ? 'no: still running after 30 s'
    : `${keepAlive.ok ? 'yes' : 'NO'}: exit code ${keepAlive.code}, printed ${keepAlive.printed ?? 'nothing'}, ${seconds(keepAlive.wallMs)}`;
  console.log(`  one pending wait (settled after 2 s) keeps its process alive: ${how}`);
  if (!keepAlive.ok && keepAlive.stderr) console.log(`    stderr: ${keepAlive.stderr}`);
}

export function printScheduler(result) {
  if (result.error) return console.log(`\nScheduler comparison crashed: ${result.error}`);
  const { n, handLoop: base, sdk } = result;
  table(
    `Scheduler: ${int(n)} concurrent waits in memory (simulator fetch), settled 1.5 s after they start, sampled at 1 s`,
    ['figure', 'hand loop (baseline)', 'SDK waitForDeposit', 'ratio'],
    [
      ['live timers', int(base.timers), int(sdk.timers), ratio(sdk.timers / base.timers)],
      [
        'heap growth, MB',
        dec(base.heapKiB / 1024),
        dec(sdk.heapKiB / 1024),
        ratio(sdk.heapKiB / base.heapKiB),
      ],
      ['wall time, s', dec(base.ms / 1000), dec(sdk.ms / 1000), ratio(sdk.ms / base.ms)],
    ],
  );
}
