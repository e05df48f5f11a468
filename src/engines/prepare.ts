import { checkBatchId } from '../batches/batch-id';
import type { BatchItem } from '../batches/types';
import { checkItem } from '../catalogue/check';
import { ValidationError } from '../errors';
import { checkSecret } from '../payments/ids';
import { paymentJobId } from './job-id';
import type { PaymentJobData, PreparedItems } from './types';

/** Options of `prepareItems` (and of each engine's `addPayments`). */
export interface PrepareItemsOptions {
  /** The batch id (as `Batches.run`'s `id`): adding to it again continues it. */
  batch: string;
  items: Iterable<BatchItem> | AsyncIterable<BatchItem>;
  /** The workers' secret: checked here (at least 16 characters), never put in a job. */
  secret: string;
  /** Default operation of items without their own. Default `disbursement.transfer`. */
  operation?: string | undefined;
}

const DEFAULT_OPERATION = 'disbursement.transfer';

/**
 * Every item checked by its creating call's own rules (the batch runner's `checkItem`)
 * before any job exists: a valid item becomes a `pay` job, a bad one a `reject` job
 * (which records its REJECTED outcome in the store and sends nothing). An item without a
 * usable key, or whose key came earlier in this call, gets no job: it is listed in
 * `rejected` only (a job could not name it, or would name another item's payment).
 */
export async function prepareItems(options: PrepareItemsOptions): Promise<PreparedItems> {
  if (options === null || typeof options !== 'object') {
    throw new ValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  checkBatchId(options.batch, 'batch');
  if (options.secret === undefined) {
    throw new ValidationError([{ path: 'secret', message: 'is required (ids derive from it)' }]);
  }
  checkSecret(options.secret);
  const { batch } = options;
  const prepared: PreparedItems = { jobs: [], rejected: [] };
  const first = new Map<string, number>();
  let index = 0;
  for await (const item of options.items) {
    const at = index++;
    const check = checkItem(item, options.operation ?? DEFAULT_OPERATION);
    const earlier = check.key === '' ? undefined : first.get(check.key);
    const keyUsable = check.ok || !check.issues.some((issue) => issue.path === 'key');
    if (earlier !== undefined || !keyUsable || check.key === '') {
      const reason =
        earlier !== undefined
          ? `key: "${check.key}" is the key of item ${earlier + 1} already (keys are unique)`
          : check.ok
            ? 'key: must be a non-empty string'
            : check.reason;
      prepared.rejected.push({ index: at, key: check.key, reason });
      continue;
    }
    first.set(check.key, at);
    const base = { v: 1 as const, batch, key: check.key, operation: check.operation };
    let data: PaymentJobData;
    if (check.ok) {
      data = { ...base, kind: 'pay', body: item.body };
      if (typeof item.callbackUrl === 'string') data.callbackUrl = item.callbackUrl;
    } else {
      data = { ...base, kind: 'reject', reason: check.reason };
      prepared.rejected.push({ index: at, key: check.key, reason: check.reason });
    }
    const content = [data.kind, data.operation, data.body ?? null, data.callbackUrl ?? null];
    prepared.jobs.push({ jobId: await paymentJobId(batch, check.key, content), data });
  }
  return prepared;
}
