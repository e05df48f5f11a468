import { fingerprint } from '../payments/ids';

/**
 * The engine job id of item `key` of `batch` (`content`: what the job carries, its
 * operation and body): `momo-` and the first 32 hex digits of SHA-256 of their JSON (the
 * kernel's hash: Web Crypto, no Node import), with no `:` and never a number (which
 * BullMQ refuses); no secret. The same item added twice shares one job while the engine
 * keeps it; a changed item under the same key gets a job of its own, so its REJECTED
 * result is seen. A hint only: the store decides what is sent.
 */
export async function paymentJobId(batch: string, key: string, content?: unknown): Promise<string> {
  const hash = await fingerprint('momo-job:v1', [batch, key, content ?? null]);
  return `momo-${hash.slice(0, 32)}`;
}
