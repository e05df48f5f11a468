import { fingerprint } from '../payments/ids';

/**
 * The engine job id of item `key` of `batch`: `momo-` and the first 32 hex digits of
 * SHA-256 of their JSON (the kernel's hash: Web Crypto, no Node import), with no `:` and
 * never a number (which BullMQ refuses); no secret, so anyone may compute it. A hint
 * only: the store decides what is sent.
 */
export async function paymentJobId(batch: string, key: string): Promise<string> {
  return `momo-${(await fingerprint('momo-job:v1', [batch, key])).slice(0, 32)}`;
}
