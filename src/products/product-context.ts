import type { ApiUserAuthorizer } from '../auth/authorizer';
import type { Config } from '../core/config';
import type { Transport } from '../core/transport';
import type { Poller } from '../polling/poller';
import type { CallbackFanOut } from '../settle/callback-bus';
import type { JournalKeeper } from '../settle/journal-keeper';
import type { Outcomes } from '../settle/outcomes';
import type { OperationRegistry } from '../settle/registry';

/**
 * What the product verbs (`ProductApi`) use of a client's shared parts. `ClientContext`
 * (client-context.ts), the composition root, is the one implementation: the verbs name this
 * interface, not the class that builds them, so that the two do not import each other.
 */
export interface ProductContext {
  readonly config: Config;
  readonly auth: ApiUserAuthorizer;
  readonly transport: Transport;
  readonly poller: Poller;
  /** Operations created or awaited here, for the callback handler to confirm. */
  readonly operations: OperationRegistry;
  /** Operations in flight (scale-out). */
  readonly journal: JournalKeeper;
  /** Confirmed callback results to and from other instances (scale-out). */
  readonly callbackBus: CallbackFanOut;
  /** The one settle point: every final outcome goes through it to the journal and the bus. */
  readonly outcomes: Outcomes;
}
