import type { ClientSurface } from '../client-surface';
import type { BatchClaimToken, BatchHandle, BatchRecord } from '../contracts/batch-store';
import { isApiError, isMomoError, isWaitTimeoutError } from '../errors';
import type { ClaimHolder, HeldClaim } from '../payments/claims';
import { TAKEN_OVER } from '../payments/claims';
import { reasonCode, sendFailure, stopsTheRun } from '../payments/failure';
import { derivedReferenceId, fingerprint, randomReferenceId } from '../payments/ids';
import { AdoptedCheck } from '../payments/verify';
import { accountHolderActive } from './account-check';
import { leaseOf } from './claims';
import type { FirstLookupPlanner } from './first-lookup';
import type { BatchOperationSpec, FinalLike } from './operations';
import { refusedRecord } from './refused-record';
import { recordFinal } from './settled';
import type { ProgressCounts } from './summary';
import type { BatchItemStatus, BatchRunOptions } from './types';

/**
 * What the run keeps of an item between its passes: small, never its body. A class whose
 * fields all exist from the start, so each slot is one compact object (bench: "batch of
 * 100,000 streamed: peak RSS growth").
 */
export class ItemState {
  readonly key: string;
  readonly operation: string;
  spec?: BatchOperationSpec;
  fingerprint?: string;
  /** Its record in the store: its reference id, and whether the provider has it. */
  referenceId?: string;
  recorded?: boolean;
  sent?: boolean;
  status?: BatchItemStatus;
  reason?: string;
  financialTransactionId?: string;
  /** What it moves, for the report's amounts (two strings, no object per row). */
  amount?: string;
  currency?: string;
  /** The tenant the store's record carries (the run's own, or none). */
  tenant?: string;

  constructor(key: string, operation: string) {
    this.key = key;
    this.operation = operation;
  }
}

/** What the items' task shares for the run. */
export interface RunContext {
  momo: ClientSurface;
  options: BatchRunOptions;
  handle: BatchHandle;
  /** Request options of its creating calls: the run's `createRate` kept by the client's admission stage. */
  paced: object;
  progress: ProgressCounts;
  /** When to look an item up first, learned from the items that settled. */
  firstLookup: FirstLookupPlanner;
  /** This run's name as a claim owner. */
  owner: string;
  /** Every claim the run holds, renewed together (./claims.ts). */
  claims: ClaimHolder;
}

/** Why an item is left to another process: it holds the claim, or took it over (or it lapsed). */
export const CLAIMED = 'claimed by another process';
export { TAKEN_OVER };

/**
 * One item's way: account check, claim, intent recorded (durably), creating call under
 * its one reference id (a 429 pauses the client's creating calls and the call is made again; a 409 means an
 * earlier send landed), the send slot given back, then its wait to SUCCESSFUL or FAILED,
 * started once the provider is likely to have settled it (`FirstLookupPlanner`).
 * Resolves when the item ended or stopped; rejects only for what stops the whole run.
 * `taken`: a claim the caller holds already (./takeover.ts), its account check done.
 */
export async function runItem(
  run: RunContext,
  slot: ItemState,
  item: { body: unknown; callbackUrl?: unknown },
  freeSendSlot: () => void,
  taken?: { token: BatchClaimToken; askedAt: number },
): Promise<void> {
  const { options, handle } = run;
  const end = (status: BatchItemStatus, reason?: string) => {
    slot.status = status;
    if (reason !== undefined) slot.reason = reason;
  };
  let claim: HeldClaim | undefined;
  let adopted: AdoptedCheck | undefined; // a 409's transaction, compared with the item
  try {
    if (taken === undefined && !slot.recorded && options.checkAccountHolder === true) {
      if ((await accountHolderActive(run.momo, slot.spec, item.body, options.signal)) === false) {
        run.progress.change((c) => (c.skipped += 1));
        return end('SKIPPED', 'account holder not active');
      }
    }
    if (options.dryRun === true) {
      if (!slot.referenceId && options.secret) {
        slot.referenceId = await derivedReferenceId(options.secret, handle.id, slot.key);
      }
      return end('UNRESOLVED', 'not sent (dry run)');
    }
    const leaseMs = leaseOf(handle);
    const askedAt = taken?.askedAt ?? Date.now();
    const token = taken?.token ?? (await handle.claim(slot.key, run.owner, leaseMs));
    if (token === undefined) return end('UNRESOLVED', CLAIMED);
    claim = run.claims.hold(slot.key, token, askedAt);
    // Another process may have recorded the item since this run read the store.
    const current = await handle.get(slot.key);
    const notThisItems = current && refusedRecord(run, slot, current);
    if (notThisItems) return end('REJECTED', notThisItems);
    if (current && adoptRecord(slot, current)) return countEnded(run, slot);
    let acceptedAt: number | undefined;
    // Before the creating call: the provider accepted it no earlier, whatever the load.
    const sentAt = Date.now();
    if (!slot.sent) {
      const sent = await send(run, slot, item, claim);
      if (typeof sent !== 'string') return end(...sent);
      // Accepted now (a 409: earlier, when is not known, so no hold; and not proven this
      // item's: compared with the provider's transaction, SENT recorded only with the outcome).
      if (sent === 'accepted') acceptedAt = Date.now();
      else adopted = new AdoptedCheck(item.body);
      const sentNow = (t: string) => handle.recordOutcome(slot.key, { status: 'SENT' }, t);
      if (!(adopted || (await claim.write(sentNow)))) return end('UNRESOLVED', TAKEN_OVER);
      run.progress.change((c) => (c.sent += 1));
    }
    freeSendSlot(); // the wait holds no send slot
    // Ended early by the run's signal or by the claim's loss.
    const signal = options.signal ? AbortSignal.any([options.signal, claim.signal]) : claim.signal;
    const heldFrom = Date.now();
    if (acceptedAt !== undefined)
      await run.firstLookup.hold(acceptedAt, signal, options.waitTimeoutMs);
    const final = await wait(run, slot, signal, Date.now() - heldFrom, adopted);
    if (acceptedAt !== undefined && final.status === 'SUCCESSFUL') {
      run.firstLookup.learn(sentAt, Date.now());
    }
    const reason = final.status === 'FAILED' ? reasonCode(final.reason) : undefined;
    const ftid = final.financialTransactionId;
    if (claim.lost) return end('UNRESOLVED', TAKEN_OVER); // its new owner records it
    const outcome = {
      status: final.status as 'SUCCESSFUL' | 'FAILED',
      ...(reason === undefined ? {} : { reason }),
      ...(ftid === undefined ? {} : { financialTransactionId: ftid }),
    };
    const unrecorded = await recordFinal(run, slot, outcome, claim); // and onItemSettled
    if (unrecorded) return end('UNRESOLVED', unrecorded);
    if (ftid !== undefined) slot.financialTransactionId = ftid;
    run.progress.change((c) => (final.status === 'SUCCESSFUL' ? c.successful++ : c.failed++));
    end(final.status as BatchItemStatus, reason);
  } catch (error) {
    if (claim?.lost) return end('UNRESOLVED', TAKEN_OVER);
    if (adopted?.reason !== undefined) {
      run.progress.change((c) => {
        c.sent -= 1; // the provider holds another transaction, not this item
        c.rejected += 1;
      });
      return end('REJECTED', adopted.reason); // nothing recorded: a re-run compares again
    }
    if (options.signal?.aborted) return end('UNRESOLVED', 'stopped');
    if (stopsTheRun(error) || !isMomoError(error)) throw error;
    if (isWaitTimeoutError(error)) return end('UNRESOLVED', 'WAIT_TIMEOUT');
    end('UNRESOLVED', (isApiError(error) && error.code) || error.name);
  } finally {
    freeSendSlot();
    if (claim) await run.claims.letGo(claim);
    if (claim && !claim.lost) await handle.release(slot.key, claim.token);
  }
}

/**
 * Takes what the store holds for an item into its slot: its reference id, whether the
 * provider has it, its final status. True when the item has ended.
 */
export function adoptRecord(slot: ItemState, record: BatchRecord): boolean {
  slot.referenceId = record.referenceId;
  if (record.tenant !== undefined) slot.tenant = record.tenant;
  slot.recorded = true;
  const outcome = record.outcome;
  // Final, but owed its onItemSettled (`delivered: false`): looked up again, as if SENT.
  if (outcome?.status === 'SENT' || outcome?.delivered === false) slot.sent = true;
  else if (outcome) {
    slot.status = outcome.status;
    if (outcome.reason !== undefined) slot.reason = outcome.reason;
    if (outcome.financialTransactionId !== undefined) {
      slot.financialTransactionId = outcome.financialTransactionId;
    }
  }
  return slot.status !== undefined;
}

/** An item another process ended while this run was reading: counted as this run's. */
function countEnded(run: RunContext, slot: ItemState): void {
  run.progress.change((c) => {
    c.sent += 1;
    if (slot.status === 'SUCCESSFUL') c.successful += 1;
    else c.failed += 1;
  });
}

/** 'accepted': by this send; 'existed': by an earlier one (a 409); else how the item ended. */
type Sent = 'accepted' | 'existed' | [BatchItemStatus, string];

/** The intent recorded, then the creating call made until the provider has it or refused it. */
async function send(
  run: RunContext,
  slot: ItemState,
  item: { body: unknown; callbackUrl?: unknown },
  claim: HeldClaim,
): Promise<Sent> {
  const { options, handle } = run;
  const print = await fingerprint(slot.operation, item.body);
  if (print !== slot.fingerprint) {
    throw new Error(
      `batch ${handle.id}: item "${slot.key}" changed between the check and the send (items must read the same twice)`,
    );
  }
  const referenceId =
    slot.referenceId ??
    (options.secret
      ? await derivedReferenceId(options.secret, handle.id, slot.key)
      : randomReferenceId());
  const tenant = run.momo.tenant;
  const intent = {
    key: slot.key,
    operation: slot.operation,
    fingerprint: slot.fingerprint,
    referenceId,
    ...(tenant === undefined ? {} : { tenant }),
  };
  const record = await claim.write((t) => handle.recordIntent(intent, t));
  if (!record) return ['UNRESOLVED', TAKEN_OVER];
  const notThisItems = refusedRecord(run, slot, record);
  if (notThisItems) return ['REJECTED', notThisItems];
  slot.referenceId = record.referenceId;
  if (record.tenant !== undefined) slot.tenant = record.tenant;
  slot.recorded = true;
  const callOptions = {
    ...run.paced,
    referenceId: record.referenceId,
    tag: `${handle.id}/${slot.key}`,
    ...(typeof item.callbackUrl === 'string' ? { callbackUrl: item.callbackUrl } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  for (;;) {
    try {
      await slot.spec?.create(run.momo, item.body as never, callOptions);
      return 'accepted';
    } catch (error) {
      const failure = sendFailure(error);
      switch (failure.kind) {
        case 'rate-limited': // the client's admission stage paused its creating calls: the same id again
        case 'never-sent': // nothing left the client: the same id again (never UNRESOLVED)
          continue;
        case 'landed': // the first send of this run met an earlier send (a crash, a lost store)
          return 'existed';
        case 'invalid':
          return ['REJECTED', failure.reason];
        case 'refused': // nothing was created, and resending cannot change the answer: final
          return refused(run, slot, claim, failure.code);
        default:
          throw error;
      }
    }
  }
}

/** A refusal recorded FAILED with its code, as a final status is: a rerun does not send it again. */
async function refused(
  run: RunContext,
  slot: ItemState,
  claim: HeldClaim,
  code: string,
): Promise<Sent> {
  const unrecorded = await recordFinal(run, slot, { status: 'FAILED', reason: code }, claim);
  if (unrecorded) return ['UNRESOLVED', unrecorded]; // and onItemSettled, as for a final status
  run.progress.change((c) => {
    c.sent += 1;
    c.failed += 1;
  });
  return ['FAILED', code];
}

/** The item's wait; `heldMs` (its hold before the first lookup) counts against its deadline. */
function wait(
  run: RunContext,
  slot: ItemState,
  signal: AbortSignal,
  heldMs: number,
  adopted: AdoptedCheck | undefined,
): Promise<FinalLike> {
  const { waitTimeoutMs } = run.options;
  const options = {
    signal,
    ...(waitTimeoutMs === undefined ? {} : { timeoutMs: Math.max(1, waitTimeoutMs - heldMs) }),
  };
  const go = (o: typeof options) =>
    (slot.spec as BatchOperationSpec).wait(run.momo, slot.referenceId as string, o);
  return adopted ? adopted.wait(options, go) : go(options);
}
