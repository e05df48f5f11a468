import type { ApiUserStore } from './api-users';
import type { Clock } from './clock';
import type { ConsentStore } from './consent';
import type { Ledger } from './ledger';
import type { DeliveryLog } from './notifications';
import type { ResolvedOptions } from './options';
import type { ResolvedPartner } from './partners';
import type { TokenRecord, TokenStore } from './tokens';
import type { Product } from './types';

/**
 * Who may call a route. `bearer-optional`: no Authorization is fine, a given one must be
 * valid (spec 4.19). `basic-or-bearer`: an API-user token or the API user's Basic
 * credentials (spec 4.1). `none`: the subscription key alone (sandbox provisioning).
 */
export type AuthMode =
  | 'basic'
  | 'bearer'
  | 'bearer-optional'
  | 'basic-or-bearer'
  | 'consent'
  | 'none';

/** `required`: missing is 400; `optional`: checked only when sent; `ignored`. */
export type TargetEnvironmentRule = 'required' | 'optional' | 'ignored';

/** What a route handler gets. The body text has been read already. */
export interface RouteContext {
  readonly request: Request;
  readonly headers: Headers;
  readonly params: Readonly<Record<string, string>>;
  readonly product: Product;
  /** The raw body text ('' when none). */
  readonly text: string;
  /** The verified Bearer token, when the route authenticated one. */
  readonly token: TokenRecord | undefined;
  /** The simulator's time when the request arrived (`now`), and its clock. */
  readonly now: number;
  readonly clock: Clock;
  readonly options: ResolvedOptions;
  readonly ledger: Ledger;
  readonly tokens: TokenStore;
  readonly consents: ConsentStore;
  readonly deliveries: DeliveryLog;
  /** API users created through the sandbox provisioning endpoints. */
  readonly apiUsers: ApiUserStore;
  /** The partner whose subscription key the request carries. */
  readonly partner: ResolvedPartner;
}

export type RouteHandler = (ctx: RouteContext) => Response | Promise<Response>;

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `{name}` parameters, e.g. `/disbursement/v1_0/transfer/{referenceId}`. */
  readonly path: string;
  /** Whose credentials apply (docs/credentials.md: the product the path begins with). */
  readonly product: Product;
  readonly auth: AuthMode;
  readonly targetEnvironment: TargetEnvironmentRule;
  readonly handle: RouteHandler;
}

interface Compiled {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

function compile(route: Route): Compiled {
  const names: string[] = [];
  const source = route.path
    .split(/(\{[A-Za-z]+\})/)
    .map((part) => {
      const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** Matches a method and pathname against a route table. */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map(compile);
  }

  match(method: string, path: string): RouteMatch {
    const allow: string[] = [];
    for (const { route, pattern, names } of this.compiled) {
      const found = pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allow.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      names.forEach((name, index) => {
        params[name] = safeDecode(found[index + 1] ?? '');
      });
      return { kind: 'found', route, params };
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
