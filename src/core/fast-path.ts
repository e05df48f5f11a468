import type { FastPath } from './http';

/**
 * The Node fast path, loaded with the first request and only on Node itself (not Bun,
 * Deno or a browser, whose own fetch is used): node:http is never imported elsewhere.
 */
export async function loadFastPath(maxSockets: number): Promise<FastPath | undefined> {
  const versions = globalThis.process?.versions as Record<string, string | undefined> | undefined;
  if (!versions?.node || versions.bun || 'Deno' in globalThis) return undefined;
  const { createNodeFetch, isNativeFetch } = await import('./node-fetch/index');
  const fetch = createNodeFetch({ maxSockets });
  return { usable: isNativeFetch, fetch };
}
