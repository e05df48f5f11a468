import { MomoClient } from '../client';
import type { ApiUser, MomoClientOptions, ProductName } from '../core/options';
import { isApiError } from '../errors';
import { SANDBOX_BASE_URL } from '../sandbox/sandbox';
import { flagOrEnv, oneOf, type ParsedCommand } from './args';
import { type Io, UsageError } from './output';
import { TENANT_FLAGS, TENANT_HELP } from './tenants-file';

export const PRODUCTS: readonly ProductName[] = ['disbursement', 'collection', 'remittance'];

/** Flags that the API commands (token, balance, status) take besides their own. */
export const CONNECTION_FLAGS = {
  'base-url': { type: 'string' },
  'target-environment': { type: 'string' },
  json: { type: 'boolean' },
  ...TENANT_FLAGS,
} as const;

export const CONNECTION_HELP = `Connection (flags override the environment):
  --base-url <url>             MOMO_BASE_URL (default ${SANDBOX_BASE_URL})
  --target-environment <name>  MOMO_TARGET_ENVIRONMENT (default sandbox)
  MOMO_SUBSCRIPTION_KEY, MOMO_API_USER, MOMO_API_KEY; per product, e.g.
  MOMO_COLLECTION_SUBSCRIPTION_KEY, MOMO_COLLECTION_API_USER, MOMO_COLLECTION_API_KEY
  --json                       one JSON object on stdout, for scripts
${TENANT_HELP}`;

export function productArg(value: string): ProductName {
  return oneOf(value, PRODUCTS, 'product');
}

/** Where the API commands send their requests: flag, else variable, else the default. */
export function connectionFromEnv(
  io: Io,
  args: ParsedCommand,
): { baseUrl: string; targetEnvironment: string } {
  return {
    baseUrl: flagOrEnv(args.text('base-url'), io.env, 'MOMO_BASE_URL', SANDBOX_BASE_URL),
    targetEnvironment: flagOrEnv(
      args.text('target-environment'),
      io.env,
      'MOMO_TARGET_ENVIRONMENT',
      'sandbox',
    ),
  };
}

export type CredentialName = 'SUBSCRIPTION_KEY' | 'API_USER' | 'API_KEY';

/**
 * A product's credential and the variable it came from: MOMO_<PRODUCT>_<NAME> when set,
 * else the shared MOMO_<NAME>. `variable` is the one to change when it is refused.
 */
export function credentialFromEnv(
  env: Io['env'],
  product: ProductName,
  name: CredentialName,
): { value: string | undefined; variable: string } {
  const own = `MOMO_${product.toUpperCase()}_${name}`;
  if (env[own]) return { value: env[own], variable: own };
  return { value: env[`MOMO_${name}`] || undefined, variable: `MOMO_${name}` };
}

/**
 * A client for one product (or several: `reconcile` looks up what its file names),
 * configured from MOMO_* variables (a product's own MOMO_<PRODUCT>_* variable wins over
 * the shared one). Credentials come only from the environment, so that they stay out of
 * shell history and process listings.
 */
export function clientFromEnv(
  io: Io,
  args: ParsedCommand,
  product: ProductName | readonly ProductName[],
  overrides: Partial<MomoClientOptions> = {},
): MomoClient {
  const missing: string[] = [];
  const products: Partial<Record<ProductName, { subscriptionKey: string; apiUser: ApiUser }>> = {};
  for (const name of typeof product === 'string' ? [product] : product) {
    const credential = (which: CredentialName) => {
      const { value } = credentialFromEnv(io.env, name, which);
      if (!value) missing.push(`MOMO_${which} (or MOMO_${name.toUpperCase()}_${which})`);
      return value ?? '';
    };
    const subscriptionKey = credential('SUBSCRIPTION_KEY');
    const id = credential('API_USER');
    const key = credential('API_KEY');
    products[name] = { subscriptionKey, apiUser: { id, key } };
  }
  if (missing.length > 0) throw new UsageError(`Not set: ${missing.join(', ')}.`);
  // `--tenant`: the client is that tenant's, so what it records (payouts' batch items, the
  // journal) carries it and what it reads of a shared store (reconcile --from-store,
  // subscriptions --store) is that tenant's alone.
  const tenant = args.text('tenant');
  return new MomoClient({
    ...connectionFromEnv(io, args),
    ...products,
    ...(tenant === undefined ? {} : { tenant }),
    ...overrides,
  });
}

/**
 * Which credential a 401 refused, and the variable to change. The service names it:
 * `invalid_subscription_key` / `missing_subscription_key` (or the gateway's "invalid
 * subscription key" message) blame the subscription key; anything else on the token
 * request (`login_failed`) blames the API user id and key.
 */
export function refusedCredential(
  error: unknown,
  env: Io['env'],
  product: ProductName,
): string | undefined {
  if (!isApiError(error) || error.status !== 401) return undefined;
  const said = `${error.code ?? ''} ${JSON.stringify(error.body ?? '')}`.toLowerCase();
  const code = error.code ? ` (${error.code})` : '';
  if (/subscription[ _]key/.test(said)) {
    const { variable } = credentialFromEnv(env, product, 'SUBSCRIPTION_KEY');
    return `${product}: the service refused the subscription key${code}: change ${variable}`;
  }
  const user = credentialFromEnv(env, product, 'API_USER').variable;
  const key = credentialFromEnv(env, product, 'API_KEY').variable;
  return `${product}: the service refused the API user id or API key${code}: change ${user} or ${key}`;
}
