import type { ClientSurface } from '../client-surface';
import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionPlan,
} from '../contracts/subscription-store';

/** What one subscription's pass works with. */
export interface StepContext {
  readonly momo: ClientSurface;
  readonly secret: string;
  /** This pass's time (epoch ms, from the subscriptions' `now`). */
  readonly now: number;
  /** How long a charge's outcome is awaited before the pass moves on (0: one lookup). */
  readonly waitMs: number;
  /** When something pending (a mandate, a charge, an invoice) is looked at again. */
  readonly recheckMs: number;
  /** Writes the subscription (compare-and-set); throws `LostClaim` when another writer came first. */
  save(subscription: Subscription): Promise<void>;
  /** A charge that became final (or was sent), for the report and `onCharge`. */
  changed(subscription: Subscription, charge: SubscriptionCharge): void;
}

/** Another writer (a `cancel`, a runner that took over) changed the subscription: this pass lets go. */
export class LostClaim extends Error {
  constructor(key: string) {
    super(`subscription ${JSON.stringify(key)} was changed by another writer`);
    this.name = 'LostClaim';
  }
}

/** A subscription's plan, as its pass needs it. */
export type Plan = SubscriptionPlan;
