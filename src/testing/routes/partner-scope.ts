import type { TxRecord } from '../ledger';
import type { RouteContext } from '../router';

/** `{ partner }` for a stored transaction, when the simulator has several partners. */
export function partnerField(ctx: RouteContext): { partner?: string } {
  return ctx.options.partners.several ? { partner: ctx.partner.name } : {};
}

/**
 * The transaction under this id when the calling partner may see it: its own (with
 * several partners, another's is not found, as the provider keeps subscriptions apart).
 */
export function ownTransaction(ctx: RouteContext, referenceId: string): TxRecord | undefined {
  const tx = ctx.ledger.get(referenceId);
  if (tx === undefined || !ctx.options.partners.several) return tx;
  return tx.partner === ctx.partner.name ? tx : undefined;
}
