/**
 * `momo-partner-sdk/otel` from CommonJS, as installed from the tarball: a call through the
 * simulator exports one CLIENT span to an in-memory exporter (explicit providers).
 * Copied into the package checks' consumer and run there by check.mjs.
 */
const { otel } = require('momo-partner-sdk/otel');
const { createSimulator } = require('momo-partner-sdk/testing');
const {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} = require('@opentelemetry/sdk-trace-base');

async function main() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const momo = createSimulator().client({ telemetry: otel({ tracerProvider }) });
  await momo.disbursement.getBalance();
  const names = exporter.getFinishedSpans().map((span) => span.name);
  if (!names.includes('GET /disbursement/v1_0/account/balance')) {
    throw new Error(`spans exported: ${names.join(', ') || 'none'}`);
  }
  console.log(`otel CJS ok: ${names.join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
