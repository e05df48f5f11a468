import { leaseOf } from '../batches/claims';
import type { BatchHandle, BatchIntent } from '../contracts/batch-store';
import { derivedReferenceId, fingerprint } from '../payments/ids';
import type { PaymentJobData, PaymentJobResult } from './types';

/**
 * A `reject` job: the bad item's REJECTED outcome recorded under its key (intent with the
 * id it would have been sent under, a fingerprint of the rejection, not of the body), so
 * the stored report lists it. Nothing is sent. A key whose record is another item's (sent
 * or recorded first) keeps it: the rejection is only this job's result. A key another
 * worker holds: the same (that worker's item is the key's). The record carries the tenant
 * of the worker's client, as a sent item's does.
 */
export async function recordRejection(
  handle: BatchHandle,
  secret: string,
  data: PaymentJobData,
  owner: string,
  tenant: string | undefined,
): Promise<PaymentJobResult> {
  const { batch, key, operation } = data;
  const reason = data.reason ?? 'rejected when added';
  const rejected: PaymentJobResult = { status: 'REJECTED', batch, key, reason };
  const print = await fingerprint(operation, { rejected: reason });
  const token = await handle.claim(key, owner, leaseOf(handle));
  if (token === undefined) return rejected;
  try {
    const current = await handle.get(key);
    if (current) {
      const own = current.fingerprint === print && current.tenant === tenant;
      if (own) rejected.referenceId = current.referenceId;
      return rejected;
    }
    const referenceId = await derivedReferenceId(secret, batch, key);
    const intent: BatchIntent = {
      key,
      operation,
      fingerprint: print,
      referenceId,
      ...(tenant === undefined ? {} : { tenant }),
    };
    const record = await handle.recordIntent(intent, token);
    if (record?.fingerprint !== print || record.tenant !== tenant) return rejected;
    await handle.recordOutcome(key, { status: 'REJECTED', reason }, token);
    rejected.referenceId = referenceId;
    return rejected;
  } finally {
    await handle.release(key, token);
  }
}
