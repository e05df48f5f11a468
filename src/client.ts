import { AccessToken } from './auth/access-token';
import { ClientContext, withContext } from './core/context';
import type { MomoClientOptions, ProductName } from './core/options';
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

  /** The API-user access token of a product (cached; `forceRefresh` asks for a new one). */
  async getAccessToken(
    product: ProductName,
    options: { forceRefresh?: boolean } = {},
  ): Promise<AccessToken> {
    return new AccessToken(
      await this.#context.auth.accessToken(product, options.forceRefresh === true),
    );
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
