import { compareBuild } from '../lib/config.mjs';

/**
 * The clients the bench compares, by name (loaded on demand: each child imports one).
 * With BENCH_COMPARE set, another build of the SDK runs in the same rounds.
 */
export const clientKinds = ['raw-fetch', 'raw-http', 'sdk', 'sdk-fetch'];
if (compareBuild) clientKinds.push('sdk-compare');

export const clientLabels = {
  'raw-fetch': 'raw fetch',
  'raw-http': 'raw node:http (keep-alive Agent)',
  sdk: 'SDK, default transport',
  'sdk-fetch': 'SDK, fetch: globalThis.fetch',
  'sdk-compare': 'SDK of BENCH_COMPARE, default',
};

export async function createClient(kind, url, credentials) {
  if (kind === 'raw-fetch') {
    return (await import('./raw-fetch.mjs')).createRawFetchClient(url, credentials);
  }
  if (kind === 'raw-http') {
    return (await import('./raw-http.mjs')).createRawHttpClient(url, credentials);
  }
  if (kind === 'sdk-otel' || kind === 'sdk-otel-compare') {
    // Not in clientKinds: measured against 'sdk' by sections/telemetry.mjs only.
    const build = kind === 'sdk-otel-compare' ? compareBuild : undefined;
    return (await import('./sdk-otel.mjs')).createSdkOtelClient(url, credentials, { build });
  }
  if (kind === 'raw-http-otel' || kind === 'raw-http-span' || kind === 'raw-http-record') {
    const parts = { 'raw-http-otel': 'both', 'raw-http-span': 'span', 'raw-http-record': 'record' };
    const { createRawHttpOtelClient } = await import('./otel-floor.mjs');
    return createRawHttpOtelClient(url, credentials, parts[kind]);
  }
  if (kind === 'sdk-noop-port' || kind === 'sdk-providers') {
    return (await import('./otel-floor.mjs')).createSdkFloorClient(url, credentials, kind);
  }
  const { createSdkClient } = await import('./sdk.mjs');
  const build = kind === 'sdk-compare' ? compareBuild : undefined;
  return createSdkClient(url, credentials, { forceFetch: kind === 'sdk-fetch', build });
}
