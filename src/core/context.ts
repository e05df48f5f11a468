import { ApiUserAuthorizer } from '../auth/authorizer';
import { OperationRegistry } from '../callbacks/registry';
import { Poller } from '../polling/poller';
import { CallbackFanOut } from '../scale-out/callback-bus';
import { sharedStateHealth } from '../scale-out/health';
import { JournalKeeper } from '../scale-out/journal-keeper';
import { type Config, resolveConfig } from './config';
import type { MomoClientOptions } from './options';
import { Transport } from './transport';

/** What the products of one client share: options, transport, token cache, poller, registry. */
export class ClientContext {
  readonly config: Config;
  readonly auth: ApiUserAuthorizer;
  readonly transport: Transport;
  readonly poller: Poller;
  /** Operations created or awaited here, for the callback handler to confirm. */
  readonly operations = new OperationRegistry();
  /** Operations in flight (scale-out). */
  readonly journal: JournalKeeper;
  /** Confirmed callback results to and from other instances (scale-out). */
  readonly callbackBus: CallbackFanOut;

  constructor(options: MomoClientOptions) {
    this.config = resolveConfig(options);
    this.auth = new ApiUserAuthorizer(this.config);
    this.transport = new Transport(this.config, this.auth);
    this.auth.attach(this.transport);
    this.poller = new Poller(this.config.polling);
    const health = sharedStateHealth(this.config);
    this.journal = new JournalKeeper(options.journal, health.of('journal'));
    this.callbackBus = new CallbackFanOut(
      options.callbackBus,
      this.poller,
      health.of('callback bus'),
    );
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ClientContext { baseUrl: '${this.config.baseUrl}', targetEnvironment: '${this.config.targetEnvironment}' }`;
  }
}

const SHARED = Symbol('momo-partner-sdk.shared-context');

/** Options carrying a client's context, so a product built by MomoClient shares it. */
export function withContext(options: MomoClientOptions, context: ClientContext): MomoClientOptions {
  return Object.assign(Object.create(null), options, { [SHARED]: context });
}

export function contextOf(options: MomoClientOptions): ClientContext {
  const shared = (options as { [SHARED]?: ClientContext } | undefined)?.[SHARED];
  return shared ?? new ClientContext(options);
}
