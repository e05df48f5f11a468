/**
 * The SDK as a partner uses it, from the built package: on its default transport, or with
 * `fetch: globalThis.fetch` forced (the path a partner's own fetch takes), or another build
 * of it (BENCH_COMPARE) on its default transport. The bench's
 * limits are passed to both (ignored by SDK versions that do not know them).
 */
import { pathToFileURL } from 'node:url';
import { limits } from '../lib/config.mjs';

export function sdkOptions(url, credentials, { forceFetch = false, polling } = {}) {
  return {
    baseUrl: url,
    ...credentials,
    ...limits,
    ...(forceFetch ? { fetch: globalThis.fetch } : {}),
    ...(polling ? { polling } : {}),
  };
}

/** `build`: another build's package directory (BENCH_COMPARE) instead of this one. */
export async function createSdkClient(url, credentials, { forceFetch = false, build } = {}) {
  const { MomoClient } = await (build
    ? import(pathToFileURL(`${build}/dist/index.js`).href)
    : import('momo-partner-sdk'));
  const momo = new MomoClient(sdkOptions(url, credentials, { forceFetch }));
  await momo.disbursement.getAccessToken();
  return {
    momo,
    lookup: (referenceId) => momo.disbursement.getDeposit(referenceId),
    balance: () => momo.disbursement.getBalance(),
    create: (body) => momo.disbursement.deposit(body),
  };
}
