import type { BatchHandle } from '../contracts/batch-store';
import { ClaimHolder, DEFAULT_LEASE_MS, type Renewal } from '../payments/claims';

/** The claim's lease: the store's, else the kernel's default (renewed at a third of it). */
export function leaseOf(handle: BatchHandle): number {
  return handle.leaseMs ?? DEFAULT_LEASE_MS;
}

/**
 * The run's claims on one batch: the kernel's holder (src/payments/claims.ts), renewing
 * every item in flight at once: in one round trip with a store that has `renew`, else
 * each item by `claim` again (a partner's store of an earlier contract).
 */
export function batchClaims(handle: BatchHandle, owner: string): ClaimHolder {
  const leaseMs = leaseOf(handle);
  const renewal: Renewal =
    typeof handle.renew === 'function'
      ? { all: (claims) => (handle.renew as NonNullable<BatchHandle['renew']>)(claims, leaseMs) }
      : { one: (claim) => handle.claim(claim.key, owner, leaseMs) };
  return new ClaimHolder(leaseMs, renewal);
}
