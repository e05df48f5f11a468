import { ApiUserAuthorizer } from '../auth/authorizer';
import { OperationRegistry } from '../callbacks/registry';
import { Poller } from '../polling/poller';
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

  constructor(options: MomoClientOptions) {
    this.config = resolveConfig(options);
    this.auth = new ApiUserAuthorizer(this.config);
    this.transport = new Transport(this.config, this.auth);
    this.auth.attach(this.transport);
    this.poller = new Poller(this.config.polling);
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
