import type { ClientSurface } from '../client-surface';
import type { Subscription, SubscriptionMandate } from '../contracts/subscription-store';
import { mandateTag } from './terms';

/** What the provider lists of a payer's approved pre-approvals (only what is read here). */
interface Listed {
  preApprovalId?: unknown;
  expiryTime?: unknown;
  message?: unknown;
}

/** Why a mandate was left approved: the provider's list cannot tell it from another. */
export const AMBIGUOUS =
  'NOT_CANCELLED: the provider lists two approved pre-approvals of this payer that cannot be told apart';

/** A mandate's tag (`ref 1a2b3c4d`) in a listed message, if any. */
const TAG = /\bref [0-9a-f]{8}\b/;

/** Every mandate of `sub` that may be approved at the provider: its own, and the ones it replaced. */
export function ownMandates(sub: Subscription): SubscriptionMandate[] {
  const all = [sub.mandate, sub.renewal, sub.change?.mandate, ...(sub.replaced ?? [])];
  return all.filter((m): m is SubscriptionMandate => m?.status === 'APPROVED');
}

/**
 * Which listed pre-approval is `mandate`: the one whose message carries its tag; for a
 * mandate asked for before messages carried tags, the one expiring in the same second
 * that carries no other subscription's tag. `undefined`: none is listed (expired,
 * revoked, cancelled already); `'ambiguous'`: more than one fits.
 */
function find(listed: Listed[], mandate: SubscriptionMandate): Listed | 'ambiguous' | undefined {
  const tag = mandateTag(mandate.referenceId);
  const tagged = listed.filter((p) => typeof p.message === 'string' && p.message.includes(tag));
  if (tagged.length === 1) return tagged[0];
  if (tagged.length > 1) return 'ambiguous';
  if (mandate.expiresAt === undefined) return undefined;
  const second = (ms: number) => Math.floor(ms / 1000);
  const expiry = second(mandate.expiresAt);
  const fits = listed.filter(
    (p) =>
      p.expiryTime !== undefined &&
      second(Date.parse(String(p.expiryTime))) === expiry &&
      !(typeof p.message === 'string' && TAG.test(p.message)),
  );
  if (fits.length > 1) return 'ambiguous';
  return fits[0];
}

/**
 * Cancels at the provider every approved mandate of `sub` (its own and every one it
 * replaced), never another subscription's: each found in the payer's list of approved
 * pre-approvals by the tag its message carries. One the list cannot tell apart from
 * another is left approved (its `reason` says so) rather than guessed. Marks each
 * mandate CANCELLED (or, no longer listed, EXPIRED when past its expiry). Resolves with
 * the mandates left approved because they could not be told apart.
 */
export async function cancelMandates(
  momo: ClientSurface,
  sub: Subscription,
  now: number,
): Promise<SubscriptionMandate[]> {
  const mandates = ownMandates(sub);
  if (mandates.length === 0) return [];
  const { partyIdType, partyId } = sub.payer;
  const idType = partyIdType === 'PARTY_CODE' ? 'id' : partyIdType.toLowerCase();
  const listed = (await momo.collection.getApprovedPreApprovals(
    idType as 'msisdn',
    partyId,
  )) as Listed[];
  const left: SubscriptionMandate[] = [];
  for (const mandate of mandates) {
    const found = find(listed, mandate);
    if (found === 'ambiguous') {
      mandate.reason = AMBIGUOUS;
      left.push(mandate);
    } else if (found?.preApprovalId) {
      await momo.collection.cancelPreApproval(String(found.preApprovalId));
      mandate.status = 'CANCELLED';
    } else if ((mandate.expiresAt ?? Infinity) <= now) {
      mandate.status = 'EXPIRED';
    } else {
      mandate.status = 'CANCELLED'; // not listed as approved: revoked or cancelled already
    }
  }
  return left;
}

/** `cancelMandates` at the end of a pass that stopped it: best effort (a failure leaves them to expire). */
export async function releaseMandates(
  momo: ClientSurface,
  sub: Subscription,
  now: number,
): Promise<void> {
  try {
    await cancelMandates(momo, sub, now);
  } catch {
    // Left to expire; no charge is made under them either way.
  }
}
