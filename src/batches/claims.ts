import type { BatchHandle } from '../contracts/batch-store';
import { ClaimHolder, type Renewal } from '../payments/claims';

/** The claim's lease when the store names none (renewed at a third of it while in flight). */
export const LEASE_MS = 15_000;

/**
 * The run's claims on one batch: the kernel's holder (src/payments/claims.ts), renewing
 * every item in flight at once: in one round trip with a store that has `renew`, else
 * each item by `claim` again (a partner's store of an earlier contract).
 */
export function batchClaims(handle: BatchHandle, owner: string): ClaimHolder {
  const leaseMs = handle.leaseMs ?? LEASE_MS;
  const renewal: Renewal =
    typeof handle.renew === 'function'
      ? { all: (claims) => (handle.renew as NonNullable<BatchHandle['renew']>)(claims, leaseMs) }
      : { one: (claim) => handle.claim(claim.key, owner, leaseMs) };
  return new ClaimHolder(leaseMs, renewal);
}
