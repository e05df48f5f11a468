import { type Config, resolveConfig } from '../core/config';
import type { ApiUser, Logger, LogLevel, RequestOptions } from '../core/options';
import { type Authorizer, Transport } from '../core/transport';
import { ConflictError, ValidationError } from '../errors';
import { inspectSymbol } from '../inspect';
import type { SandboxUser, SandboxUserInput } from '../schemas/sandbox';
import { sandboxOperations as op } from './operations';
import { printsRedacted } from './redacted';

/** The provider's public sandbox, where the provisioning API lives. */
export const SANDBOX_BASE_URL = 'https://sandbox.momodeveloper.mtn.com';

/** Options of `new Sandbox(options)`: the sandbox provisioning client. */
export interface SandboxOptions {
  /** Default `https://sandbox.momodeveloper.mtn.com`; plain http only for loopback hosts. */
  baseUrl?: string;
  /** A subscription key of the sandbox (Ocp-Apim-Subscription-Key), from the partner portal. */
  subscriptionKey: string;
  /** Your own fetch (e.g. `sim.fetch` in tests); default the built-in transport. */
  fetch?: typeof globalThis.fetch;
  /** Per attempt. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  logger?: Logger;
  /** The least severe level passed to `logger`; default `info`. */
  logLevel?: LogLevel;
}

/** The last, optional argument of the Sandbox methods. */
export type SandboxRequestOptions = Pick<
  RequestOptions,
  'signal' | 'timeoutMs' | 'maxRetries' | 'headers'
>;

export interface CreateUserOptions extends SandboxRequestOptions {
  /** The new API user's id (UUID v4, sent as X-Reference-Id); generated when omitted. */
  referenceId?: string;
}

/** What `createApiKey` answers. `apiKey` is readable, but JSON and `util.inspect` redact it. */
export interface SandboxApiKey {
  apiKey: string;
}

/** The provisioning API only checks the key; no call here ever needs an Authorization. */
const NO_AUTHORIZATION: Authorizer = {
  problem: () => undefined,
  authorization: () => Promise.reject(new Error('sandbox operations send no Authorization')),
};

/**
 * Sandbox onboarding: creates the API user and API key that the sandbox gives a partner
 * only through its provisioning API. `provision()` does both and returns `{ id, key }`
 * for the client's `apiUser` option.
 */
export class Sandbox {
  readonly #config: Config;
  readonly #transport: Transport;

  constructor(options: SandboxOptions) {
    if (options === null || typeof options !== 'object') {
      throw new ValidationError([{ path: '(options)', message: 'must be an object' }]);
    }
    const key: unknown = options.subscriptionKey;
    if (typeof key !== 'string' || key.trim() === '') {
      throw new ValidationError([
        { path: 'subscriptionKey', message: 'is required: a subscription key of the sandbox' },
      ]);
    }
    this.#config = resolveConfig({
      baseUrl: options.baseUrl ?? SANDBOX_BASE_URL,
      targetEnvironment: 'sandbox',
      subscriptionKey: key,
      // The client's options take `undefined` as absent: each passed as it is.
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      logger: options.logger,
      logLevel: options.logLevel,
    });
    this.#transport = new Transport(this.#config, NO_AUTHORIZATION);
  }

  /**
   * POST /v1_0/apiuser. Retried under the same id; a 409 on a retry means an earlier
   * attempt created the user, and resolves. A 409 on the first attempt is a ConflictError.
   */
  async createUser(input: SandboxUserInput, options?: CreateUserOptions): Promise<{ id: string }> {
    const result = await this.#transport.call(op.createUser, { body: input, options });
    return { id: result.referenceId as string };
  }

  /** POST /v1_0/apiuser/{id}/apikey. Each call issues a new key; use the latest. */
  async createApiKey(id: string, options?: SandboxRequestOptions): Promise<SandboxApiKey> {
    const { data } = await this.#transport.call(op.createApiKey, { params: { id }, options });
    this.#config.scrubber.add(data.apiKey);
    return printsRedacted({ apiKey: data.apiKey }, 'apiKey');
  }

  /** GET /v1_0/apiuser/{id}: the user's callback host and target environment. */
  async getUser(id: string, options?: SandboxRequestOptions): Promise<SandboxUser> {
    return (await this.#transport.call(op.getUser, { params: { id }, options })).data;
  }

  /**
   * Creates an API user and its key: `{ id, key }`, ready for the client's `apiUser`
   * option. With a `referenceId` it can be resumed: if that user already exists with the
   * same callback host (an earlier run stopped before the key), it gets a new key.
   */
  async provision(input: SandboxUserInput, options: CreateUserOptions = {}): Promise<ApiUser> {
    const { referenceId, ...perCall } = options ?? {};
    let id: string;
    try {
      id = (await this.createUser(input, options)).id;
    } catch (error) {
      if (!(error instanceof ConflictError) || referenceId === undefined) throw error;
      const existing = await this.getUser(referenceId, perCall);
      if (existing.providerCallbackHost !== input.providerCallbackHost) throw error;
      id = referenceId;
    }
    const { apiKey } = await this.createApiKey(id, perCall);
    return printsRedacted({ id, key: apiKey }, 'key');
  }

  /** Its `util.inspect` rendering: what it is, never a secret. */
  [inspectSymbol](): string {
    return `Sandbox { baseUrl: '${this.#config.baseUrl}' }`;
  }

  /** The sandbox client for JSON and logs: its base URL, never the subscription key. */
  toJSON() {
    return { baseUrl: this.#config.baseUrl };
  }
}
