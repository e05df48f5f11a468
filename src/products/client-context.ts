import { ApiUserAuthorizer } from '../auth/authorizer';
import { type Config, resolveConfig } from '../core/config';
import type { MomoClientOptions } from '../core/options';
import { loadNodePath } from '../core/sender';
import { Transport } from '../core/transport';
import { Poller } from '../polling/poller';
import { CallbackFanOut } from '../settle/callback-bus';
import { SharedStateHealth } from '../settle/health';
import { JournalKeeper } from '../settle/journal-keeper';
import { Outcomes } from '../settle/outcomes';
import { OperationRegistry } from '../settle/registry';
import type { TableOperation } from './endpoints';
import { ProductApi } from './product-api';
import { operationTables } from './tables';

/**
 * The composition root: what the products of one client share (options, transport,
 * token cache, poller, callback registry), wired once. MomoClient hands it to each
 * product as an explicit internal argument; a standalone product builds its own.
 */
export class ClientContext {
  declare readonly config: Config;
  declare readonly auth: ApiUserAuthorizer;
  declare readonly transport: Transport;
  declare readonly poller: Poller;
  /** Each shared component's state (`momo.health()`). */
  declare readonly health: SharedStateHealth;
  /** Operations created or awaited here, for the callback handler to confirm. */
  readonly operations = new OperationRegistry();
  /** Operations in flight (scale-out). */
  declare readonly journal: JournalKeeper;
  /** Confirmed callback results to and from other instances (scale-out). */
  declare readonly callbackBus: CallbackFanOut;
  /** Where every final outcome is settled: the journal, the waits and the bus hear it there. */
  declare readonly outcomes: Outcomes;
  /**
   * Every operation of the tables by its name (`product.method`, as the journal records
   * it): how scale-out finds the lookup that confirms an operation without importing a
   * product. Built on first use (a journal resume or a callback), not by every client.
   */
  get operationsByName(): ReadonlyMap<string, TableOperation> {
    return operationsByName();
  }
  #api: ProductApi | undefined;

  constructor(options: MomoClientOptions) {
    this.config = resolveConfig(options);
    // One health tracker per client, handed to each shared-state component it watches.
    const health = new SharedStateHealth(this.config.log);
    this.auth = new ApiUserAuthorizer(
      this.config,
      options.tokenStore,
      (op, options) => this.transport.call(op, { options }),
      health.of('tokenStore'),
    );
    // The rate budget is in use only with a rate to share.
    const rated = options.lookupRate !== undefined || options.createRate !== undefined;
    const rateBudget = rated ? options.rateBudget : undefined;
    const sharedRates = rateBudget && { budget: rateBudget, health: health.of('rateBudget') };
    this.transport = new Transport(this.config, this.auth, loadNodePath, sharedRates);
    this.poller = new Poller(this.config.polling, this.config.telemetry);
    health.configure({
      journal: options.journal !== undefined,
      tokenStore: options.tokenStore !== undefined,
      callbackBus: options.callbackBus !== undefined,
      rateBudget: rateBudget !== undefined,
    });
    this.health = health;
    this.journal = new JournalKeeper(
      options.journal,
      health.of('journal'),
      this.config,
      options.tenant,
    );
    this.callbackBus = new CallbackFanOut(
      options.callbackBus,
      this.poller,
      health.of('callbackBus'),
    );
    this.outcomes = new Outcomes(this.journal, this.callbackBus, this.poller);
  }

  /** The verbs (send, look up, wait) over this context. */
  get api(): ProductApi {
    this.#api ??= new ProductApi(this);
    return this.#api;
  }
}

/**
 * The context a product was handed by MomoClient, or a new one from `options` (a
 * standalone product). The argument is typed `unknown` in the public constructors so
 * that no internal type reaches the published declarations.
 */
export function sharedContext(options: MomoClientOptions, context: unknown): ClientContext {
  return context instanceof ClientContext ? context : new ClientContext(options);
}

let registry: Map<string, TableOperation> | undefined;

/** Built once from the tables; the first row of a name wins (variants share their lookup). */
function operationsByName(): ReadonlyMap<string, TableOperation> {
  if (registry) return registry;
  registry = new Map();
  for (const table of Object.values(operationTables)) {
    for (const op of Object.values(table) as TableOperation[]) {
      if (!registry.has(op.name)) registry.set(op.name, op);
    }
  }
  return registry;
}
