import { batchClaims } from '../batches/claims';
import { FirstLookupPlanner } from '../batches/first-lookup';
import { ItemState, type RunContext } from '../batches/item';
import { ProgressCounts } from '../batches/summary';
import { runOrTakeOver } from '../batches/takeover';
import { checkItem } from '../catalogue/check';
import type { ClientSurface } from '../client-surface';
import type { BatchHandle, BatchStore } from '../contracts/batch-store';
import { ValidationError } from '../errors';
import { ConcurrencyLimit } from '../payments/concurrency-limit';
import { checkSecret, fingerprint, ownerId } from '../payments/ids';
import { recordRejection } from './rejection';
import type { PaymentJobContext, PaymentJobData, PaymentJobResult } from './types';

/** Options of one job's run. */
export interface PaymentJobRunOptions {
  /**
   * When (epoch ms, this process's clock) the job gives its item up as "look up later":
   * the item's wait, or its wait for another worker's claim, ends there. Default 60 s on.
   */
  deadline?: number | undefined;
  /** Stops the job: nothing more is sent; the result is PENDING (looked up later). */
  signal?: AbortSignal | undefined;
}

const DEFAULT_DEADLINE_MS = 60_000;

/** Per store: each batch's handle, opened once per process; what the first lookups learned. */
const opened = new WeakMap<
  BatchStore,
  { handles: Map<string, Promise<BatchHandle>>; firstLookup: FirstLookupPlanner }
>();

function stateOf(store: BatchStore) {
  let state = opened.get(store);
  if (!state) {
    state = { handles: new Map(), firstLookup: new FirstLookupPlanner() };
    opened.set(store, state);
  }
  return state;
}

function handleOf(store: BatchStore, batch: string): Promise<BatchHandle> {
  const { handles } = stateOf(store);
  let handle = handles.get(batch);
  if (!handle) {
    handle = store.open(batch);
    handle.catch(() => handles.delete(batch)); // opened again by the next job
    handles.set(batch, handle);
  }
  return handle;
}

/**
 * Runs one payment job to its item's final outcome, on the batch runner's own item path
 * (src/batches/item.ts, takeover.ts): claimed in the store (15 s lease, fenced), sent
 * under the id derived from (batch, key, secret) only when the store does not show it
 * sent, a 409 adopted only when the provider's transaction is this item (docs/batches.md),
 * awaited, recorded. A changed item under a used key is REJECTED. An item another worker
 * holds is awaited and taken over once that worker's lease lapses. Not final by the
 * deadline: PENDING (hand back a lookup job; the store shows it sent, so it is looked up).
 * Rejects only for what a retry may cure (the store unreachable, credentials refused).
 */
export async function runPaymentJob(
  momo: ClientSurface,
  context: PaymentJobContext,
  data: PaymentJobData,
  options: PaymentJobRunOptions = {},
): Promise<PaymentJobResult> {
  checkContext(context);
  const { batch, key } = data ?? ({} as PaymentJobData);
  if (data?.v !== 1 || typeof batch !== 'string' || typeof key !== 'string') {
    throw new ValidationError([{ path: 'job.data', message: 'is not a momo payment job (v1)' }]);
  }
  const handle = await handleOf(context.store, batch);
  if (data.kind === 'reject') {
    return recordRejection(handle, context.secret, data, ownerId('batch'), momo.tenant);
  }
  const check = checkItem(data, data.operation);
  if (!check.ok) return { status: 'REJECTED', batch, key, reason: check.reason };
  const slot = new ItemState(key, check.operation);
  slot.spec = check.spec;
  slot.fingerprint = await fingerprint(check.operation, data.body);
  const deadline = options.deadline ?? Date.now() + DEFAULT_DEADLINE_MS;
  const owner = ownerId('batch'); // one per job: two jobs of one item in a process exclude each other
  const run: RunContext = {
    momo,
    options: {
      id: batch,
      store: context.store,
      secret: context.secret,
      waitTimeoutMs: Math.max(1, deadline - Date.now()),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    handle,
    paced: {},
    progress: new ProgressCounts(undefined),
    firstLookup: stateOf(context.store).firstLookup,
    owner,
    claims: batchClaims(handle, owner),
  };
  const sendLimit = new ConcurrencyLimit(1); // the engine's concurrency is the limit
  await sendLimit.acquire();
  let freed = false;
  const free = () => {
    if (!freed) sendLimit.release();
    freed = true;
  };
  const item = { body: data.body, callbackUrl: data.callbackUrl };
  await runOrTakeOver(run, slot, item, free, sendLimit, () => false);
  return resultOf(batch, slot);
}

function resultOf(batch: string, slot: ItemState): PaymentJobResult {
  const { key, referenceId, reason, financialTransactionId, tenant } = slot;
  const status = slot.status;
  if (status === 'SUCCESSFUL' || status === 'FAILED' || status === 'REJECTED') {
    const result: PaymentJobResult = { status, batch, key };
    if (tenant !== undefined) result.tenant = tenant;
    if (referenceId !== undefined) result.referenceId = referenceId;
    if (reason !== undefined) result.reason = reason;
    if (financialTransactionId !== undefined) {
      result.financialTransactionId = financialTransactionId;
    }
    return result;
  }
  const pending: PaymentJobResult = {
    status: 'PENDING',
    batch,
    key,
    reason: reason ?? 'not final yet',
  };
  if (referenceId !== undefined) pending.referenceId = referenceId;
  if (tenant !== undefined) pending.tenant = tenant;
  return pending;
}

/** The job a PENDING result is handed back as: the same item, looked up (never a new send). */
export function lookupJob(data: PaymentJobData): PaymentJobData {
  return { ...data, lookup: true };
}

/** The context's secret and store, checked before anything is read. */
export function checkContext(context: PaymentJobContext): void {
  const store = context?.store as { open?: unknown } | undefined;
  const issues = [];
  if (!store || typeof store.open !== 'function') {
    issues.push({ path: 'store', message: 'is required: a batch store (Redis or PostgreSQL)' });
  }
  if (typeof context?.secret !== 'string') {
    issues.push({ path: 'secret', message: 'is required (ids derive from it)' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  checkSecret(context.secret);
}
