/**
 * The SDK as a partner uses it, from the built package: on its default transport, or with
 * `fetch: globalThis.fetch` forced (the path a partner's own fetch takes). The bench's
 * limits are passed to both (ignored by SDK versions that do not know them).
 */
import { MomoClient } from 'momo-partner-sdk';
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

export async function createSdkClient(url, credentials, { forceFetch = false } = {}) {
  const momo = new MomoClient(sdkOptions(url, credentials, { forceFetch }));
  await momo.disbursement.getAccessToken();
  return {
    momo,
    lookup: (referenceId) => momo.disbursement.getDeposit(referenceId),
    balance: () => momo.disbursement.getBalance(),
    create: (body) => momo.disbursement.deposit(body),
  };
}
