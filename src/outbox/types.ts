import type { ClientSurface } from '../client-surface';
import type { Logger } from '../contracts/hooks';
import type { OutboxPayment } from '../contracts/outbox-store';

/** Options of `db.outbox.start(momo, options)` (and `startOutboxRelay`). */
export interface OutboxRelayOptions<Tx = unknown> {
  /** At most this many creating calls in flight at once; waits hold none. Default 16. */
  concurrency?: number;
  /**
   * Runs once a payment is final, in the transaction that marks it delivered: your update
   * and the mark commit together. A throw rolls both back; it runs again later (at least
   * once per payment).
   */
  onSettled?: (payment: OutboxPayment, tx: Tx) => Promise<void> | void;
  /** How often the relay looks for due intents without a wake-up (the fallback). Default 1000. */
  pollIntervalMs?: number;
  /** Where the relay says what it cannot reach and when it is back (one line per change). */
  logger?: Logger;
  /**
   * A tenant's client, for the intents enqueued with a `tenant` (docs/tenants.md): e.g.
   * `(id) => tenants.client(id)`. With it, the relay claims every tenant's intents and
   * sends each with its own tenant's client (the relay's `momo` sends those of no tenant,
   * when it is a client of no tenant). Without it, the relay claims only the intents of
   * its client's tenant (`momo.tenant`; none: those without a tenant). An intent is never
   * sent with another tenant's client.
   */
  tenantClient?: (tenant: string) => Promise<ClientSurface> | ClientSurface;
}

/** A running relay. */
export interface OutboxRelay {
  /**
   * Claims nothing more; sends in flight finish and are recorded; payments still waiting
   * for their final status are given back at once (another relay, or the next start,
   * looks them up). Resolves when the relay holds nothing.
   */
  stop(): Promise<void>;
}
