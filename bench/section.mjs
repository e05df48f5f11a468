/**
 * One section of the bench on this Node only, for a quick look while working:
 *   npm run build && node --expose-gc bench/section.mjs throughput|start-up|cold-start|waits|lookup-cap|batches|postgres|telemetry|subscriptions
 * Same harness, server and figures as `npm run bench`; no targets table (it needs every
 * section). BENCH_QUICK=1 applies as in the full run.
 */
import { startServer } from './lib/processes.mjs';
import { providerPriority } from './lib/provider-priority.mjs';
import { printImports, printThroughput, printWaits } from './report.mjs';
import { measureBatch, printBatch } from './sections/batch.mjs';
import { measureColdStart, printColdStart } from './sections/cold-start.mjs';
import { measureImports } from './sections/imports.mjs';
import { measurePostgres, printPostgres } from './sections/postgres.mjs';
import { measureRateLimit, printRateLimit } from './sections/rate-limit.mjs';
import { measureSubscriptions, printSubscriptions } from './sections/subscriptions.mjs';
import { measureTelemetry, printTelemetry } from './sections/telemetry.mjs';
import { measureThroughput } from './sections/throughput.mjs';
import { measureWaits } from './sections/waits.mjs';

const sections = {
  throughput: async (node, server) => printThroughput(node, await measureThroughput(node, server)),
  'start-up': async (node, server) => printImports(node, await measureImports(node, server)),
  'cold-start': async (node) => printColdStart(await measureColdStart(node)),
  waits: async (node, server) =>
    printWaits(node, await measureWaits(node, server, { big: process.env.BENCH_BIG === '1' })),
  'lookup-cap': async (node) => printRateLimit(await measureRateLimit(node)),
  batches: async (node) => printBatch(await measureBatch(node), { alone: true }),
  postgres: async (node, server) => printPostgres(await measurePostgres(node, server)),
  telemetry: async (node, server) => printTelemetry(node, await measureTelemetry(node, server)),
  subscriptions: async (node) =>
    printSubscriptions(await measureSubscriptions(node), { alone: true }),
};
const name = process.argv[2] ?? '';
const run = sections[name];
if (!run) {
  console.error(`usage: node bench/section.mjs ${Object.keys(sections).join('|')}`);
  process.exit(2);
}
const node = { label: `node ${process.versions.node}`, execPath: process.execPath };
const server = await startServer();
try {
  await run(node, server);
  if (['lookup-cap', 'batches', 'subscriptions'].includes(name)) {
    console.log(`Capped providers: ${providerPriority()}.`);
  }
} finally {
  server.stop();
}
