import { createHash } from 'node:crypto';

/**
 * The engine job id of item `key` of `batch`: `momo-` and the first 32 hex digits of
 * SHA-256 of their JSON (no `:` and never a number, which BullMQ refuses; no secret, so
 * anyone may compute it). A hint only: the store decides what is sent.
 */
export function paymentJobId(batch: string, key: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([batch, key]))
    .digest('hex');
  return `momo-${digest.slice(0, 32)}`;
}
