/**
 * The subscriptions section's lines and targets (sections/subscriptions.mjs measures).
 */
import { targets } from '../lib/config.mjs';
import { subscriptionsPlan as plan } from '../lib/subs-plan.mjs';
import { dec, int, ratio, table } from '../lib/table.mjs';

const verdict = (pass) => (pass ? 'PASS' : 'MISS');
const part = (result, name) =>
  result?.[name] && !result[name].error && !result[name].skipped ? result[name] : undefined;
/** A crash in one line: why the child ended and the last line it wrote. */
const first = (error) => {
  const lines = error.split('\n').filter((line) => line.trim());
  const why = lines[0]?.replace(/^.*\}: /, '') ?? '';
  const last = lines.findLast((line) => /Error|error/.test(line)) ?? '';
  return `${why} ${last}`.trim().slice(0, 200);
};

/** Keys read from the due index and records read, per subscription due, in the 1% pass. */
function dueReads(result, kind = 'memory') {
  const run = part(result, 'due')?.perKind[kind];
  if (!run || run.error) return undefined;
  const { records } = run.some.store;
  return Math.max(records.due, records.get) / run.due;
}

/** The subscriptions targets, as the targets table takes them: [name, measure, pass, shown]. */
export function subscriptionsTargets() {
  const n = int(plan.capped.charges);
  const total = int(plan.dueTotal);
  return [
    [
      `subscriptions: ${n} charges under 20 creates/s, 100 lookups/s: time <= ${targets.subscriptionsVsFloor}x floor`,
      (result) => part(result, 'capped')?.vsFloor,
      (v) => v <= targets.subscriptionsVsFloor,
      ratio,
    ],
    [
      `subscriptions: ${n} charges: every one SUCCESSFUL, once`,
      (result) => {
        const a = part(result, 'capped');
        return a && a.server.duplicates === 0 ? a.counts.successful : undefined;
      },
      (v) => v === plan.capped.charges,
      int,
    ],
    [
      `subscriptions: runDue on ${total}, 1% due: reads per due one <= ${targets.subscriptionsDueReads} (memory)`,
      (result) => dueReads(result, 'memory'),
      (v) => v <= targets.subscriptionsDueReads,
      (v) => dec(v, 3),
    ],
    ...['postgres', 'redis'].map((kind) => [
      `subscriptions: runDue on ${total}, 1% due: reads per due one <= ${targets.subscriptionsDueReads} (${kind})`,
      (result) => dueReads(result, kind),
      (v) => v <= targets.subscriptionsDueReads,
      (v) => dec(v, 3),
    ]),
  ];
}

const perCharge = (store, n) => {
  const c = store.calls;
  return `get ${dec(c.get / n, 2)}, put ${dec(c.put / n, 2)}, due ${dec(c.due / n, 3)}, getPlan ${dec(c.getPlan / n, 3)}`;
};

function printCapped(a) {
  if (a.skipped) return console.log(`a. under the caps: skipped (${a.skipped})`);
  if (a.error) return console.log(`a. under the caps: CRASHED ${first(a.error)}`);
  const s = a.server;
  console.log(
    `a. ${int(a.charges)} subscriptions, mandates approved before the timing, all due at one moment; one runDue, memory store, concurrency ${a.concurrency}, client createRate ${a.createRate}, lookupRate ${a.lookupRate}; provider: ${a.createCap} creates/s, ${a.lookupCap} lookups/s (429 Retry-After: 1 beyond), settles ${a.settleMs / 1000} s after acceptance`,
  );
  console.log(
    `   floor = max(charges / ${a.createCap}, charges / ${a.lookupCap}) = ${dec(a.floorMs / 1000)} s; ${int(a.counts.successful)}/${int(a.charges)} SUCCESSFUL (${a.counts.failed} failed, ${a.errors} errors${a.firstError ? `: ${a.firstError}` : ''}) in ${dec(a.elapsedMs / 1000)} s = ${ratio(a.vsFloor)} the floor`,
  );
  const { firstCreate, lastCreate, firstLookup, lastLookup } = s.spans;
  console.log(
    `   at the provider: creates ${int(s.creates)} (${dec(s.creates / a.charges, 3)} per charge; 409 ${s.duplicates}; refused ${s.createsRefused}) from ${dec(firstCreate / 1000)} s to ${dec(lastCreate / 1000)} s = ${dec((s.creates - 1) / ((lastCreate - firstCreate) / 1000))}/s; lookups served ${int(s.served)} (${dec(s.served / a.charges, 3)} per charge, ${int(s.pending)} PENDING; refused ${s.refused}) from ${dec(firstLookup / 1000)} s to ${dec(lastLookup / 1000)} s`,
  );
  const d = a.loopDelayMs;
  if (d) {
    console.log(
      `   the runner's timers, late by (event-loop delay over a 10 ms timer): mean ${dec(d.mean, 1)} ms, p99 ${dec(d.p99, 1)} ms, max ${int(d.max)} ms`,
    );
  }
  const m = a.memory;
  console.log(
    `   runner's memory (after a GC): RSS ${int(m.emptyRssMB)} MB before any subscription, ${int(m.baselineRssMB)} MB once ${int(a.charges)} are in the memory store, ${int(m.midRssMB)} MB half-way through the pass (peak ${int(m.peakRssMB)} MB, sampled every 50 ms); heap per due subscription half-way: ${dec(m.midHeapPerSubKB, 2)} KB with its record in the store, ${dec(m.midPassHeapPerSubKB, 2)} KB the pass's own (${dec(m.endPassHeapPerSubKB, 2)} KB at the end: the report's charge events)`,
  );
  console.log(
    `   memory store per charge: ${perCharge(a.store, a.charges)} (reads ${dec(a.store.reads / a.charges, 2)}, writes ${dec(a.store.writes / a.charges, 2)})`,
  );
}

function printStores(b) {
  if (b.skipped) return console.log(`b. store cost: skipped (${b.skipped})`);
  if (b.error) return console.log(`b. store cost: CRASHED ${first(b.error)}`);
  const rows = Object.entries(b.perKind).map(([kind, run]) => {
    if (run.error) return [kind, `CRASHED ${first(run.error)}`, '', '', '', ''];
    const n = run.n;
    const unit = kind === 'postgres' ? 'queries' : kind === 'redis' ? 'commands' : '';
    return [
      kind,
      `${int(run.counts.successful)}/${int(n)}`,
      dec(run.store.reads / n, 2),
      dec(run.store.writes / n, 2),
      run.backend === undefined ? '-' : `${dec(run.backend / n, 2)} ${unit}`,
      dec(run.elapsedMs / n, 2),
    ];
  });
  table(
    `b. store cost per charge: ${int(plan.storeCharges)} subscriptions due at once, one runDue (concurrency 64), provider uncapped, settling at once`,
    ['store', 'SUCCESSFUL', 'store reads', 'store writes', 'backend ops', 'ms per charge'],
    rows,
    { left: [0, 1, 4] },
  );
  const redis = b.perKind.redis;
  if (redis?.byCommand) {
    const top = Object.entries(redis.byCommand).sort((x, y) => y[1] - x[1]);
    console.log(
      `   Redis commands per charge: ${top.map(([name, n]) => `${name} ${dec(n / redis.n, 2)}`).join(', ')}`,
    );
  }
  for (const note of b.notes) console.log(`   ${note}`);
}

function printDue(c) {
  if (c.skipped) return console.log(`c. due index: skipped (${c.skipped})`);
  if (c.error) return console.log(`c. due index: CRASHED ${first(c.error)}`);
  const rows = [];
  for (const [kind, run] of Object.entries(c.perKind)) {
    if (run.error) {
      rows.push([kind, `CRASHED ${first(run.error)}`, '', '', '', '', '', '']);
      continue;
    }
    const reads = (pass) => pass.store.records;
    rows.push([
      kind,
      `${dec(run.setupMs / 1000)} s`,
      `${dec(run.none.ms, 1)} ms`,
      `${reads(run.none).due} keys, ${reads(run.none).get} records`,
      `${dec(run.some.ms / 1000, 2)} s`,
      `${int(run.some.charged)}`,
      `${int(reads(run.some).due)} keys (due calls: ${run.some.store.calls.due}), ${int(reads(run.some).get)} records`,
      run.some.backend === undefined ? '-' : int(run.some.backend),
    ]);
  }
  table(
    `c. runDue on ${int(c.total)} subscriptions, ${int(c.due)} due (1%), written straight into the store outside the timing; a pass with none due, then the pass charging the due ones (provider settling at once, concurrency 64)`,
    [
      'store',
      'setup',
      'pass, 0 due',
      'its reads',
      `pass, ${int(c.due)} due`,
      'charged',
      'its reads',
      'backend ops',
    ],
    rows,
    { left: [0, 3, 6] },
  );
  const pg = c.perKind.postgres;
  if (pg?.plan)
    console.log(
      `   PostgreSQL's plan of due(T, 1000), EXPLAIN ANALYZE before the passes: ${pg.plan.map((l) => l.trim()).join(' / ')}`,
    );
  for (const note of c.notes) console.log(`   ${note}`);
}

/** `alone`: the section's targets too (in `npm run bench` they are in the targets table). */
export function printSubscriptions(result, { alone = false } = {}) {
  console.log(
    `\n## Subscriptions (${result.node}): new Subscriptions(momo) (momo-partner-sdk/subscriptions) on the built package`,
  );
  printCapped(result.capped);
  printStores(result.stores);
  printDue(result.due);
  if (!alone) return;
  table(
    'Subscriptions targets (issue 34); informative, a MISS does not fail the run',
    ['target', 'measured'],
    subscriptionsTargets().map(([name, measure, pass, shown]) => {
      let value;
      try {
        value = measure(result);
      } catch {
        value = undefined;
      }
      return [
        name,
        value === undefined ? '-- not measured' : `${verdict(pass(value))} ${shown(value)}`,
      ];
    }),
    { left: [0, 1] },
  );
}

export const subscriptionsCrashes = (result) =>
  ['capped', 'stores', 'due'].filter((name) => result[name]?.error);
