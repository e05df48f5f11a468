import { ClientContext, withContext } from './core/context';
import type { MomoClientOptions } from './core/options';
import { Disbursement } from './products/disbursement';

/**
 * The client: options checked once, one transport, one token cache and one poller
 * shared by every product. Products are created on first use.
 */
export class MomoClient {
  readonly #context: ClientContext;
  readonly #options: MomoClientOptions;
  #disbursement: Disbursement | undefined;

  constructor(options: MomoClientOptions) {
    this.#context = new ClientContext(options);
    this.#options = withContext(options, this.#context);
  }

  get disbursement(): Disbursement {
    this.#disbursement ??= new Disbursement(this.#options);
    return this.#disbursement;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return `MomoClient { baseUrl: '${baseUrl}', targetEnvironment: '${targetEnvironment}' }`;
  }

  toJSON() {
    const { baseUrl, targetEnvironment } = this.#context.config;
    return { baseUrl, targetEnvironment };
  }
}
