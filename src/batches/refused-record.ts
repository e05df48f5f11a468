import type { ClientSurface } from '../client-surface';
import type { BatchRecord } from '../contracts/batch-store';

/**
 * Why the store's record of the key is not this item's (never sent under it), or
 * undefined: another body, or another tenant's record in a store tenants share (its
 * reference id is that tenant's payment: this client must neither send nor adopt it).
 */
export function refusedRecord(
  run: { momo: ClientSurface },
  slot: { key: string; fingerprint?: string },
  record: BatchRecord,
): string | undefined {
  if (record.tenant !== run.momo.tenant) {
    const whose = record.tenant === undefined ? 'a client of no tenant' : 'another tenant';
    return `key: "${slot.key}" was recorded in this batch by ${whose}; not sent`;
  }
  if (record.fingerprint !== slot.fingerprint) return usedKey(slot.key);
  return undefined;
}

/** The reason a key is refused when a different body was recorded under it. */
export function usedKey(key: string): string {
  return `key: "${key}" was used in this batch for another body or operation; not sent`;
}
