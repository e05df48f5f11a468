import type { ClientJournal } from './client-journal';
import type { Collection } from './products/collection';
import type { Disbursement } from './products/disbursement';
import type { Remittance } from './products/remittance';

/** The public option types the add-ons pass to the client's methods. */
export type { RequestOptions } from './core/options';

/**
 * The public face of a `MomoClient` that its add-ons (batches, reconciliation) work
 * through: its products and its journal view, nothing internal. Named here rather than
 * as `MomoClient` so that the client, which builds the add-ons, and the add-ons do not
 * import each other.
 */
export interface ClientSurface {
  readonly disbursement: Disbursement;
  readonly collection: Collection;
  readonly remittance: Remittance;
  readonly journal: ClientJournal;
  /** The tenant the client serves (`momo-partner-sdk/tenants`): the drivers stamp and scope by it. */
  readonly tenant?: string | undefined;
  /** The platform the client sends to. */
  toJSON(): { baseUrl: string; targetEnvironment: string };
}
