import {
  type CallbackHandler,
  isValidationError,
  type MomoClient,
  ValidationError,
} from 'momo-partner-sdk';
import { isTenantId, UnknownTenantError } from './tenant-id';
import type { TenantCallback, TenantCallbackHandlerOptions } from './types';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/**
 * The tenant a callback URL names: the path segment right before the reference id
 * (`/momo/{tenant}/{referenceId}`), the reference id being the path's last UUID v4.
 */
export function tenantOfCallback(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/');
  for (let i = segments.length - 1; i > 0; i--) {
    if (UUID_V4.test(segments[i] ?? '')) {
      const tenant = segments[i - 1];
      return isTenantId(tenant) ? tenant : undefined;
    }
  }
  return undefined;
}

/**
 * `tenants.callbacks`: one receiver for all tenants. Each callback goes to the client of
 * the tenant its URL names, whose own handler (the client's receiver: reading, token
 * check, confirmation by a status lookup with that tenant's credentials, replays) answers
 * it; `onEvent` gets the client's event with its `tenant`.
 */
export class TenantCallbacks {
  readonly #client: (id: string) => Promise<MomoClient>;

  /** `client`: the tenant's live client, made if need be (`tenants.client`). */
  constructor(client: (id: string) => Promise<MomoClient>) {
    this.#client = client;
  }

  /**
   * A Fetch-API handler `(Request) => Promise<Response>` for every tenant's PUT and POST
   * callbacks: 404 when the URL names no tenant (or one `resolve` does not know), 503 with
   * `Retry-After` while the tenant's credentials cannot be read; otherwise the tenant's
   * client's own handler answers (`momo.callbacks.handler`, the same options).
   */
  handler(options: TenantCallbackHandlerOptions = {}): CallbackHandler {
    const { onEvent, ...rest } = options;
    if (onEvent !== undefined && typeof onEvent !== 'function') {
      throw new ValidationError([{ path: 'onEvent', message: 'must be a function' }], {
        operation: 'tenants.callbacks.handler',
      });
    }
    // One handler per client: a client made anew (refresh, eviction) gets its own.
    const handlers = new WeakMap<MomoClient, CallbackHandler>();
    const handlerOf = (tenant: string, client: MomoClient) => {
      let handler = handlers.get(client);
      if (!handler) {
        handler = client.callbacks.handler({
          ...rest,
          ...(onEvent
            ? { onEvent: (event) => onEvent.call(options, { ...event, tenant } as TenantCallback) }
            : {}),
        });
        handlers.set(client, handler);
      }
      return handler;
    };
    return async (request) => {
      const tenant = tenantOfCallback(request.url);
      if (tenant === undefined) {
        return json(404, { error: 'no tenant before the reference id in the callback URL' });
      }
      let client: MomoClient;
      try {
        client = await this.#client(tenant);
      } catch (error) {
        if (error instanceof UnknownTenantError) return json(404, { error: 'unknown tenant' });
        if (isValidationError(error)) {
          return json(404, { error: 'tenant not configured for callbacks' });
        }
        return json(
          503,
          { error: "the tenant's credentials cannot be read now" },
          {
            'retry-after': '5',
          },
        );
      }
      return handlerOf(tenant, client)(request);
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'TenantCallbacks';
  }
}
