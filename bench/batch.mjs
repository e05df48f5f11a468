/**
 * Measured child of the batch section (sections/batch.mjs). argv: mode, provider url,
 * JSON settings. Runs one `momo.batches.run` of generated transfer rows on the built
 * package and reports the time from the call to the report, the report's summary, the
 * provider's counters and, with `sampleRss`, the peak RSS growth (sampled every 50 ms,
 * over the RSS after a warm-up and a GC) and the heap still used after a GC at the end
 * (the report and the store's records held), over the same baseline.
 *
 * Modes: `capped` (an array, memoryBatchStore, the client's `lookupRate`), `stream` (a
 * re-readable async source, generated, never held whole; fileBatchStore in `dir`), `store`
 * (an array, the store named by `store`: memory, file or redis).
 */
import { MomoClient } from 'momo-partner-sdk';
import { Batches, fileBatchStore, memoryBatchStore } from 'momo-partner-sdk/batches';
import { sdkOptions } from './clients/sdk.mjs';
import { openRedisBatchStore } from './lib/batch-stores.mjs';
import { credentials } from './lib/config.mjs';
import { askServer, report } from './lib/processes.mjs';

const [mode, url, settingsText] = process.argv.slice(2);
const settings = JSON.parse(settingsText);
const { rows } = settings;

/** Row `i` of the generated payroll: a fresh object each time it is read. */
const row = (i) => ({
  key: `row-${i}`,
  body: {
    amount: '1.00',
    currency: 'EUR',
    externalId: `row-${i}`,
    payee: { partyIdType: 'MSISDN', partyId: `4673${String(i).padStart(8, '0')}` },
    payerMessage: 'bench',
    payeeNote: 'bench',
  },
});

/** Each reading generates the rows again, as a reader opening the file again would. */
const source = {
  async *[Symbol.asyncIterator]() {
    for (let i = 0; i < rows; i++) yield row(i);
  },
};

const momo = new MomoClient({
  ...sdkOptions(url, credentials),
  ...(settings.lookupRate ? { lookupRate: settings.lookupRate } : {}),
});
await momo.disbursement.getAccessToken();

let store;
let closeStore = async () => {};
if (settings.store === 'redis') {
  ({ store, close: closeStore } = await openRedisBatchStore(settings.redisUrl));
} else if (settings.store === 'file') store = fileBatchStore(settings.dir);
else store = memoryBatchStore();

let baseline = 0;
let baselineHeap = 0;
let peak = 0;
let sampler;
if (settings.sampleRss) {
  globalThis.gc?.();
  baseline = process.memoryUsage.rss();
  baselineHeap = process.memoryUsage().heapUsed;
  peak = baseline;
  sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
}
await askServer('reset');
const items = mode === 'stream' ? source : Array.from({ length: rows }, (_, i) => row(i));
const started = performance.now();
const result = await new Batches(momo).run(items, {
  id: `bench-${mode}-${process.pid}`,
  store,
  concurrency: settings.concurrency,
  ...(settings.createRate ? { createRate: settings.createRate } : {}),
});
const elapsedMs = performance.now() - started;
let liveAfterGcMB;
if (sampler) {
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  globalThis.gc?.();
  // What the run still holds (the report, the store's records) once garbage is gone.
  liveAfterGcMB = (process.memoryUsage().heapUsed - baselineHeap) / 2 ** 20;
}
const server = await askServer('stats');
await closeStore();
report({
  rows,
  elapsedMs,
  summary: { ...result.summary, amounts: undefined },
  server,
  ...(settings.sampleRss ? { peakRssGrowthMB: (peak - baseline) / 2 ** 20, liveAfterGcMB } : {}),
});
