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
  if (kind === 'sdk-otel') {
    // Not in clientKinds: measured against 'sdk' by sections/telemetry.mjs only.
    return (await import('./sdk-otel.mjs')).createSdkOtelClient(url, credentials);
  }
  const { createSdkClient } = await import('./sdk.mjs');
  const build = kind === 'sdk-compare' ? compareBuild : undefined;
  return createSdkClient(url, credentials, { forceFetch: kind === 'sdk-fetch', build });
}
