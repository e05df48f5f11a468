import { Callbacks } from './callbacks/callbacks';
import { type ClientJournal, JournalView } from './client-journal';
import type { SharedStateHealthReport } from './contracts/health';
import type { MomoClientOptions } from './core/options';
import { inspectSymbol } from './inspect';
import { ClientContext } from './products/client-context';
import { Collection } from './products/collection';
import { Consent } from './products/consent';
import { Disbursement } from './products/disbursement';
import { Remittance } from './products/remittance';

/**
 * The client: options checked once, one transport, one token cache and one poller
 * shared by every product. Products are created on first use. The drivers that run a
 * list, a loop or a store of their own take a client and are entries of their own, so a
 * partner who makes one payment ships none of them: `new Batches(momo)`
 * (momo-partner-sdk/batches), `reconcile(momo, books)` (/reconcile),
 * `new Subscriptions(momo, options)` (/subscriptions), `startOutboxRelay(momo, store)`
 * (/outbox).
 */
export class MomoClient {
  readonly #context: ClientContext;
  readonly #options: MomoClientOptions;
  #disbursement: Disbursement | undefined;
  #collection: Collection | undefined;
  #remittance: Remittance | undefined;
  #consent: Consent | undefined;
  #callbacks: Callbacks | undefined;
  #journal: ClientJournal | undefined;

  constructor(options: MomoClientOptions) {
    this.#context = new ClientContext(options);
    this.#options = options;
  }

  get disbursement(): Disbursement {
    this.#disbursement ??= new Disbursement(this.#options, this.#context);
    return this.#disbursement;
  }

  get collection(): Collection {
    this.#collection ??= new Collection(this.#options, this.#context);
    return this.#collection;
  }

  get remittance(): Remittance {
    this.#remittance ??= new Remittance(this.#options, this.#context);
    return this.#remittance;
  }

  /** The consent (CIBA) flow: `authorize()`, then `ConsentRequest.wait()`. */
  get consent(): Consent {
    this.#consent ??= new Consent(this.#options, this.#context);
    return this.#consent;
  }

  /** The outcome-callback receiver: `momo.callbacks.handler({ onEvent })`. */
  get callbacks(): Callbacks {
    this.#callbacks ??= new Callbacks(this.#options, this.#context);
    return this.#callbacks;
  }

  /** The tenant this client serves (`options.tenant`); undefined for a client of its own. */
  get tenant(): string | undefined {
    return this.#options.tenant;
  }

  /** Operations sent and never seen final: `pending()`, and `resume()` after a restart. */
  get journal(): ClientJournal {
    this.#journal ??= new JournalView(this.#context);
    return this.#journal;
  }

  /**
   * Each shared component (journal, token store, callback bus): `in-process`, `ok`,
   * `unavailable` (carrying on in memory) or `failing` (answers with errors: fix it).
   */
  health(): SharedStateHealthReport {
    return this.#context.health.report();
  }

  /**
   * Lets go of the client's sockets: idle ones now, busy ones once their answer is read.
   * No call is cut (calls and waits in flight finish; a later call opens new sockets), and
   * a client holds no timer while nothing is in flight. For a client you stop using
   * before the process ends (the tenant layer closes each client it evicts).
   */
  close(): void {
    this.#context.transport.close();
  }

  [inspectSymbol](): string {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return `MomoClient { baseUrl: '${baseUrl}', targetEnvironment: '${targetEnvironment}' }`;
  }

  /** The client for JSON and logs: base URL and target environment, never a credential. */
  toJSON() {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return { baseUrl, targetEnvironment };
  }
}
