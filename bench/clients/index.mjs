/** The clients the bench compares, by name (loaded on demand: each child imports one). */
export const clientKinds = ['raw-fetch', 'raw-http', 'sdk', 'sdk-fetch'];

export const clientLabels = {
  'raw-fetch': 'raw fetch',
  'raw-http': 'raw node:http (keep-alive Agent)',
  sdk: 'SDK, default transport',
  'sdk-fetch': 'SDK, fetch: globalThis.fetch',
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
  return createSdkClient(url, credentials, { forceFetch: kind === 'sdk-fetch' });
}
