import { MomoClient } from '../client';
import type { ProductName } from '../core/options';
import { SANDBOX_BASE_URL } from '../sandbox/sandbox';
import { flagOrEnv, oneOf, type ParsedCommand } from './args';
import { type Io, UsageError } from './output';

export const PRODUCTS: readonly ProductName[] = ['disbursement', 'collection', 'remittance'];

/** Flags that the API commands (token, balance, status) take besides their own. */
export const CONNECTION_FLAGS = {
  'base-url': { type: 'string' },
  'target-environment': { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const CONNECTION_HELP = `Connection (flags override the environment):
  --base-url <url>             MOMO_BASE_URL (default ${SANDBOX_BASE_URL})
  --target-environment <name>  MOMO_TARGET_ENVIRONMENT (default sandbox)
  MOMO_SUBSCRIPTION_KEY, MOMO_API_USER, MOMO_API_KEY; per product, e.g.
  MOMO_COLLECTION_SUBSCRIPTION_KEY, MOMO_COLLECTION_API_USER, MOMO_COLLECTION_API_KEY
  --json                       one JSON object on stdout, for scripts
`;

export function productArg(value: string): ProductName {
  return oneOf(value, PRODUCTS, 'product');
}

/**
 * A client for one product, configured from MOMO_* variables (a product's own
 * MOMO_<PRODUCT>_* variable wins over the shared one). Credentials come only from the
 * environment, so that they stay out of shell history and process listings.
 */
export function clientFromEnv(io: Io, args: ParsedCommand, product: ProductName): MomoClient {
  const prefix = `MOMO_${product.toUpperCase()}_`;
  const missing: string[] = [];
  const credential = (name: string) => {
    const value = io.env[`${prefix}${name}`] || io.env[`MOMO_${name}`];
    if (!value) missing.push(`MOMO_${name} (or ${prefix}${name})`);
    return value ?? '';
  };
  const subscriptionKey = credential('SUBSCRIPTION_KEY');
  const id = credential('API_USER');
  const key = credential('API_KEY');
  if (missing.length > 0) throw new UsageError(`Not set: ${missing.join(', ')}.`);
  return new MomoClient({
    baseUrl: flagOrEnv(args.text('base-url'), io.env, 'MOMO_BASE_URL', SANDBOX_BASE_URL),
    targetEnvironment: flagOrEnv(
      args.text('target-environment'),
      io.env,
      'MOMO_TARGET_ENVIRONMENT',
      'sandbox',
    ),
    [product]: { subscriptionKey, apiUser: { id, key } },
  });
}
