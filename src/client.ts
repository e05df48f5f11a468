import { Batches } from './batches/batches';
import { Callbacks } from './callbacks/callbacks';
import { ClientContext } from './context';
import type { SharedStateHealthReport } from './contracts/health';
import type { MomoClientOptions } from './core/options';
import { Collection } from './products/collection';
import { Consent } from './products/consent';
import { Disbursement } from './products/disbursement';
import { Remittance } from './products/remittance';
import { reconcile } from './reconcile/reconcile';
import type {
  ReconcileFromStoreOptions,
  ReconcileOptions,
  ReconcileRecord,
  ReconcileResult,
  ReconcileStoreRecord,
} from './reconcile/types';
import { type ClientJournal, JournalView } from './settle/client-journal';
import { Subscriptions } from './subscriptions/facade';
import type { SubscriptionsOptions } from './subscriptions/types';

/**
 * The client: options checked once, one transport, one token cache and one poller
 * shared by every product. Products are created on first use.
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
  #batches: Batches | undefined;

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

  /** Operations sent and never seen final: `pending()`, and `resume()` after a restart. */
  get journal(): ClientJournal {
    this.#journal ??= new JournalView(this.#context);
    return this.#journal;
  }

  /** Pay a list exactly once: `momo.batches.run(items, { id, store })` (docs/batches.md). */
  get batches(): Batches {
    this.#batches ??= new Batches(this);
    return this.#batches;
  }

  /**
   * Recurring collections on the provider's pre-approvals: `plan`, `subscribe`, `runDue`,
   * `start` (docs/subscriptions.md).
   */
  subscriptions(options: SubscriptionsOptions): Subscriptions {
    return new Subscriptions(this, options);
  }

  /**
   * The partner's books against the provider: each record looked up (on the platform its
   * journal entry names, within the client's lookup budget) and given a verdict. Every
   * record is checked before the first lookup: a bad one is a ValidationError naming it.
   * A reference id the books list twice is `DUPLICATE`. With a `journal`, `outbox` or
   * `batchStore`, the payments they hold that no record names are added after the
   * records (`MISSING_FROM_BOOKS`, their records `ReconcileStoreRecord`s). See
   * docs/reconcile.md.
   */
  reconcile<R extends ReconcileRecord>(
    records: Iterable<R> | AsyncIterable<R>,
    options: ReconcileFromStoreOptions,
  ): Promise<ReconcileResult<R | ReconcileStoreRecord>>;
  reconcile<R extends ReconcileRecord>(
    records: Iterable<R> | AsyncIterable<R>,
    options?: ReconcileOptions,
  ): Promise<ReconcileResult<R>>;
  reconcile<R extends ReconcileRecord>(
    records: Iterable<R> | AsyncIterable<R>,
    options?: ReconcileOptions | ReconcileFromStoreOptions,
  ): Promise<ReconcileResult<R | ReconcileStoreRecord>> {
    return reconcile(this, records, options);
  }

  /**
   * Each shared component (journal, token store, callback bus): `in-process`, `ok`,
   * `unavailable` (carrying on in memory) or `failing` (answers with errors: fix it).
   */
  health(): SharedStateHealthReport {
    return this.#context.health.report();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return `MomoClient { baseUrl: '${baseUrl}', targetEnvironment: '${targetEnvironment}' }`;
  }

  /** The client for JSON and logs: base URL and target environment, never a credential. */
  toJSON() {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return { baseUrl, targetEnvironment };
  }
}
