/**
 * The batch section's lines and targets (sections/batch.mjs measures).
 */
import { batchPlan } from '../lib/batch-plan.mjs';
import { targets } from '../lib/config.mjs';
import { dec, int, ratio, table } from '../lib/table.mjs';

const verdict = (pass) => (pass ? 'PASS' : 'MISS');

/** The section's part, or undefined when it did not run or crashed. */
const part = (result, name) => (result?.[name] && !result[name].error ? result[name] : undefined);

/** The batch targets, as the targets table takes them: [name, measure(result), pass, shown]. */
export function batchTargets() {
  const rows = int(batchPlan.capped.rows);
  const streamRows = int(batchPlan.streamRows);
  return [
    [
      `batch of ${rows} under the lookup cap: time <= ${targets.batchVsFloor}x floor`,
      (result) => part(result, 'capped')?.vsFloor,
      (v) => v <= targets.batchVsFloor,
      ratio,
    ],
    [
      `batch of ${rows}: lookups refused <= ${targets.batchRefusedShare * 100}%`,
      (result) => part(result, 'capped')?.refusedShare,
      (v) => v <= targets.batchRefusedShare,
      (v) => `${dec(v * 100, 2)}%`,
    ],
    [
      `batch of ${rows}: lookups per row <= ${targets.batchLookupsPerRow}`,
      (result) => part(result, 'capped')?.lookupsPerRow,
      (v) => v <= targets.batchLookupsPerRow,
      (v) => dec(v, 3),
    ],
    [
      `batch of ${streamRows} streamed: every row SUCCESSFUL`,
      (result) => part(result, 'streamed')?.summary.successful,
      (v) => v === batchPlan.streamRows,
      int,
    ],
    [
      `batch of ${streamRows} streamed: peak RSS growth < ${targets.batchStreamRssMB} MB`,
      (result) => part(result, 'streamed')?.peakRssGrowthMB,
      (v) => v < targets.batchStreamRssMB,
      (v) => `${int(v)} MB`,
    ],
    [
      `payouts CLI, ${streamRows} rows from a CSV: every row SUCCESSFUL`,
      (result) => part(result, 'csv')?.summary?.successful,
      (v) => v === batchPlan.streamRows,
      int,
    ],
    [
      `payouts CLI, ${streamRows} rows from a CSV: peak RSS growth < ${targets.batchStreamRssMB} MB`,
      (result) => part(result, 'csv')?.peakRssGrowthMB,
      (v) => v < targets.batchStreamRssMB,
      (v) => `${int(v)} MB`,
    ],
  ];
}

/** `alone`: the section's targets too (in `npm run bench` they are in the targets table). */
export function printBatch(result, { alone = false } = {}) {
  const { capped: a, streamed: b, csv: c, stores: d } = result;
  console.log(`\n## Batches (${result.node}): momo.batches.run on the built package`);
  if (a.error) console.log(`a. under the lookup cap: CRASHED ${a.error.split('\n')[0]}`);
  else {
    console.log(
      `a. ${int(a.rows)} rows, memoryBatchStore, lookupRate ${a.lookupRate}, concurrency ${batchPlan.concurrency}, no createRate; provider: ${a.cap} lookups/s (429 Retry-After: 1 beyond), settles ${a.settleMs / 1000} s after acceptance`,
    );
    console.log(
      `   floor = rows / lookupRate + settle = ${int(a.rows)} / ${a.lookupRate} + ${a.settleMs / 1000} s = ${dec(a.floorMs / 1000)} s (provider's cap: rows / ${a.cap} + settle = ${dec(a.providerFloorMs / 1000)} s)`,
    );
    const s = a.server;
    console.log(
      `   ${int(a.summary.successful)}/${int(a.rows)} SUCCESSFUL in ${dec(a.elapsedMs / 1000)} s = ${ratio(a.vsFloor)} the floor (${ratio(a.elapsedMs / a.providerFloorMs)} the provider's); creates ${int(s.creates)} (409 ${s.duplicates}); lookups served ${int(s.served)} (${int(s.pending)} found PENDING, ${s.notFound} 404) = ${dec(a.lookupsPerRow, 3)} per row; refused ${s.refused} (${dec(a.refusedShare * 100, 2)}%)`,
    );
  }
  if (!a.error) {
    const { firstCreate, lastCreate, firstLookup, lastLookup } = a.server.spans;
    const lookupsPerSecond = a.server.served / ((lastLookup - firstLookup) / 1000);
    console.log(
      `   at the provider: creates from ${dec(firstCreate / 1000)} s to ${dec(lastCreate / 1000)} s; lookups served from ${dec(firstLookup / 1000)} s to ${dec(lastLookup / 1000)} s, ${dec(lookupsPerSecond)}/s on average (the client's budget: ${a.lookupRate}/s)`,
    );
  }
  if (b.error) console.log(`b. streamed: CRASHED ${b.error.split('\n')[0]}`);
  else {
    console.log(
      `b. ${int(b.rows)} rows streamed from a re-readable async source, fileBatchStore (a temp folder in ${b.dir}), provider settling at once, no cap: ${int(b.summary.successful)} SUCCESSFUL in ${dec(b.elapsedMs / 1000)} s = ${int(b.rowsPerSecond)} rows/s; peak RSS growth ${int(b.peakRssGrowthMB)} MB (heap held after a GC at the end, report and store records included: ${int(b.liveAfterGcMB)} MB); creates ${int(b.server.creates)} (409 ${b.server.duplicates}), lookups ${int(b.server.served)}`,
    );
  }
  if (c.error) console.log(`c. from a CSV: CRASHED ${c.error.split('\n')[0]}`);
  else if (c.skipped) console.log(`c. from a CSV: skipped (${c.skipped})`);
  else {
    console.log(
      `c. payouts CLI (dist/cli.js), ${int(c.rows)} rows from a CSV file (in ${c.dir}), concurrency ${batchPlan.concurrency}, provider settling at once: exit ${c.code}, ${int(c.summary.successful)} SUCCESSFUL in ${dec(c.elapsedMs / 1000)} s = ${int(c.rowsPerSecond)} rows/s; peak RSS ${int(c.peakMB)} MB, growth over a 1-row file's ${int(c.baselineMB)} MB: ${int(c.peakRssGrowthMB)} MB; creates ${int(c.server.creates)} (409 ${c.server.duplicates}), lookups ${int(c.server.served)}`,
    );
  }
  if (d.error) console.log(`d. store cost: CRASHED ${d.error.split('\n')[0]}`);
  else {
    const memory = d.msPerRow.memory;
    table(
      `d. store cost: ${int(batchPlan.storeRows)} rows per run, provider settling at once, median of ${batchPlan.storeRounds} round(s), order alternating`,
      ['store', 'ms per row', 'vs memory'],
      Object.entries(d.msPerRow).map(([kind, ms]) => [kind, dec(ms, 3), ratio(ms / memory)]),
    );
    for (const note of d.notes) console.log(`   ${note}`);
  }
  if (!alone) return;
  table(
    'Batch targets (issue 25); informative, a MISS does not fail the run',
    ['target', 'measured'],
    batchTargets().map(([name, measure, pass, shown]) => {
      const value = measure(result);
      return [
        name,
        value === undefined ? '-- not measured' : `${verdict(pass(value))} ${shown(value)}`,
      ];
    }),
    { left: [0, 1] },
  );
}

export const batchCrashes = (result) =>
  ['capped', 'streamed', 'csv', 'stores'].filter((part) => result[part].error);
