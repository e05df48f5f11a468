import type { Telemetry } from '../contracts/telemetry';
import { ValidationError, type ValidationIssue } from '../errors';
import { type Log, makeLog } from './logger';
import type { ApiUser, ClientHooks, Compat, MomoClientOptions, ProductName } from './options';
import { defaultRetryPolicy, type RetryPolicy } from './retry';
import { Secret, SecretScrubber } from './secret';
import {
  checkCallbackUrl,
  checkInsecureHost,
  checkServiceUrl,
  type InsecureHosts,
  normalServiceUrl,
} from './url';

export interface Credentials {
  product: ProductName;
  subscriptionKey: Secret;
  apiUser: { id: string; key: Secret };
}

/** Client options, checked and normalised once; secrets wrapped so they never print. */
export interface Config {
  baseUrl: string;
  targetEnvironment: string;
  /** X-Account-Holding-Institution-Identifier (standard-style endpoints). */
  institution: string;
  callbackUrl: string | undefined;
  /** Option `callbackSecret`: the key of the callback tokens (src/core/callback-token.ts). */
  callbackSecret: Secret | undefined;
  /** Hosts besides loopback that may be reached over plain http (option allowInsecureHosts). */
  allowInsecureHosts: InsecureHosts;
  timeoutMs: number;
  retry: RetryPolicy;
  polling: {
    initialDelayMs: number;
    maxDelayMs: number;
    timeoutMs: number;
  };
  /** The admission stage every attempt passes before it is sent (core/admission). */
  admission: {
    maxConcurrency: number;
    /** `lookupRate`: the budget every counted GET of the client shares. */
    lookupRate: number | undefined;
    /** `createRate`: the budget every creating call of the client shares. */
    createRate: number | undefined;
    /** Counted GETs never take more than half the in-flight slots from money-moving calls. */
    maxLookupsInFlight: number;
  };
  /** Refresh an access token this long before expiry (at most half its lifetime). */
  tokenRefreshWindowMs: number;
  /** The partner's fetch; undefined means the SDK's own choice (Node fast path or global fetch). */
  fetch: typeof globalThis.fetch | undefined;
  maxSockets: number;
  log: Log;
  /** Whether debug lines reach the logger: the per-request line is not even built otherwise. */
  debug: boolean;
  hooks: ClientHooks;
  /** The tracing integration (`momo-partner-sdk/otel`); undefined costs nothing. */
  telemetry: Telemetry | undefined;
  /** The specification's form (default) or the provider documents' form. */
  compat: Compat;
  /** Option `simulatorTags`: creating calls carry their tag to the simulator (core/simulator-tag.ts). */
  simulatorTags: boolean;
  scrubber: SecretScrubber;
  /** Credentials of a product, or the ValidationError saying which is missing. */
  credentials(product: ProductName): Credentials;
  /** A product's subscription key alone (calls with `auth: 'none'` need no API user). */
  subscriptionKey(product: ProductName): Secret;
}

export function resolveConfig(options: MomoClientOptions): Config {
  const issues: ValidationIssue[] = [];
  const need = (ok: boolean, path: string, message: string) => {
    if (!ok) issues.push({ path, message });
  };
  if (options === null || typeof options !== 'object') {
    throw new ValidationError([{ path: '(options)', message: 'must be an object' }]);
  }
  const insecure = options.allowInsecureHosts ?? [];
  need(Array.isArray(insecure), 'allowInsecureHosts', 'must be an array of host names');
  const allowInsecureHosts: InsecureHosts = new Set(
    (Array.isArray(insecure) ? insecure : []).map((host, i) => {
      const problem = checkInsecureHost(host);
      need(!problem, `allowInsecureHosts.${i}`, problem ?? '');
      return String(host).toLowerCase();
    }),
  );
  const baseUrlProblem = checkServiceUrl(options.baseUrl, allowInsecureHosts);
  need(!baseUrlProblem, 'baseUrl', baseUrlProblem ?? '');
  need(nonEmpty(options.targetEnvironment), 'targetEnvironment', 'is required');
  need(
    options.accountHoldingInstitutionIdentifier === undefined ||
      nonEmpty(options.accountHoldingInstitutionIdentifier),
    'accountHoldingInstitutionIdentifier',
    'must be a non-empty string',
  );
  const { callbackSecret } = options;
  need(
    callbackSecret === undefined ||
      (typeof callbackSecret === 'string' && callbackSecret.length >= 32),
    'callbackSecret',
    'must be a string of 32 characters or more',
  );
  if (options.callbackUrl !== undefined) {
    const rules = {
      targetEnvironment: String(options.targetEnvironment),
      allowInsecureHosts,
      callbackSecret,
    };
    const problem = checkCallbackUrl(options.callbackUrl, rules);
    need(!problem, 'callbackUrl', problem ?? '');
  }
  need(isPositive(options.timeoutMs), 'timeoutMs', 'must be a positive number of milliseconds');
  need(isCount(options.maxRetries), 'maxRetries', 'must be a whole number, 0 or more');
  const polling = options.polling ?? {};
  for (const key of ['initialDelayMs', 'maxDelayMs', 'timeoutMs'] as const) {
    need(isPositive(polling[key]), `polling.${key}`, 'must be a positive number of milliseconds');
  }
  need(
    options.fetch === undefined || typeof options.fetch === 'function',
    'fetch',
    'must be a function',
  );
  for (const key of ['maxConcurrency', 'maxSockets'] as const) {
    const value = options[key];
    need(
      value === undefined || (Number.isInteger(value) && value >= 1),
      key,
      'must be a whole number, 1 or more',
    );
  }
  for (const key of ['lookupRate', 'createRate'] as const) {
    need(isPositive(options[key]), key, 'must be a positive number per second');
  }
  need(
    options.rateBudget === undefined ||
      typeof (options.rateBudget as { reserve?: unknown } | null)?.reserve === 'function',
    'rateBudget',
    'must be an object with reserve() (createRedisState().rateBudget)',
  );
  need(
    options.tokenRefreshWindowMs === undefined ||
      (Number.isFinite(options.tokenRefreshWindowMs) && options.tokenRefreshWindowMs >= 0),
    'tokenRefreshWindowMs',
    'must be a number of milliseconds, 0 or more',
  );
  need(
    options.logLevel === undefined || LOG_LEVELS.includes(options.logLevel),
    'logLevel',
    `must be one of ${LOG_LEVELS.join(', ')}`,
  );
  const hooks = options.hooks ?? {};
  need(typeof hooks === 'object' && hooks !== null, 'hooks', 'must be an object');
  for (const key of ['onRequest', 'onResponse', 'onRetry'] as const) {
    const hook = hooks?.[key];
    need(hook === undefined || typeof hook === 'function', `hooks.${key}`, 'must be a function');
  }
  need(
    options.compat === undefined || options.compat === 'spec' || options.compat === 'provider',
    'compat',
    "must be 'spec' or 'provider'",
  );
  need(
    options.simulatorTags === undefined || typeof options.simulatorTags === 'boolean',
    'simulatorTags',
    'must be true or false',
  );
  if (issues.length > 0) throw new ValidationError(issues);

  const maxConcurrency = options.maxConcurrency ?? 128;
  const scrubber = new SecretScrubber();
  if (callbackSecret !== undefined) scrubber.add(callbackSecret);
  const credentials = memoCredentials(options, scrubber);
  const keyOf = (p: ProductName) => options[p]?.subscriptionKey ?? options.subscriptionKey;
  const subscriptionKeys = {
    disbursement: keyOf('disbursement'),
    collection: keyOf('collection'),
    remittance: keyOf('remittance'),
  };
  return {
    baseUrl: normalServiceUrl(options.baseUrl),
    targetEnvironment: options.targetEnvironment,
    institution: options.accountHoldingInstitutionIdentifier ?? options.targetEnvironment,
    callbackUrl: options.callbackUrl,
    callbackSecret: callbackSecret === undefined ? undefined : new Secret(callbackSecret),
    allowInsecureHosts,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: {
      ...defaultRetryPolicy,
      maxRetries: options.maxRetries ?? defaultRetryPolicy.maxRetries,
    },
    polling: {
      initialDelayMs: polling.initialDelayMs ?? 1_000,
      maxDelayMs: polling.maxDelayMs ?? 15_000,
      timeoutMs: polling.timeoutMs ?? 300_000,
    },
    admission: {
      maxConcurrency,
      lookupRate: options.lookupRate,
      createRate: options.createRate,
      maxLookupsInFlight: Math.max(1, Math.floor(maxConcurrency / 2)),
    },
    tokenRefreshWindowMs: options.tokenRefreshWindowMs ?? 600_000,
    fetch: options.fetch,
    maxSockets: options.maxSockets ?? 128,
    log: makeLog(options.logger, options.logLevel ?? 'info', scrubber),
    debug: options.logger !== undefined && options.logLevel === 'debug',
    hooks: { ...hooks },
    telemetry: options.telemetry,
    compat: options.compat ?? 'spec',
    simulatorTags: options.simulatorTags === true,
    scrubber,
    credentials,
    subscriptionKey: (product) => {
      const key = subscriptionKeys[product];
      if (nonEmpty(key)) return new Secret(key);
      const path = `${product}.subscriptionKey`;
      throw new ValidationError([{ path, message: 'is required (or subscriptionKey)' }]);
    },
  };
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

function memoCredentials(options: MomoClientOptions, scrubber: SecretScrubber) {
  const cache = new Map<ProductName, Credentials>();
  const raw = {
    subscriptionKey: options.subscriptionKey,
    apiUser: options.apiUser ? { ...options.apiUser } : undefined,
    disbursement: copyProduct(options.disbursement),
    collection: copyProduct(options.collection),
    remittance: copyProduct(options.remittance),
  };
  for (const value of [raw.subscriptionKey, raw.apiUser?.key]) if (value) scrubber.add(value);
  for (const p of [raw.disbursement, raw.collection, raw.remittance]) {
    for (const value of [p?.subscriptionKey, p?.apiUser?.key]) if (value) scrubber.add(value);
  }
  return (product: ProductName): Credentials => {
    const hit = cache.get(product);
    if (hit) return hit;
    const own = raw[product];
    const subscriptionKey = own?.subscriptionKey ?? raw.subscriptionKey;
    const apiUser: Partial<ApiUser> | undefined = own?.apiUser ?? raw.apiUser;
    const issues: ValidationIssue[] = [];
    if (!nonEmpty(subscriptionKey)) {
      issues.push({
        path: `${product}.subscriptionKey`,
        message: 'is required (or subscriptionKey)',
      });
    }
    if (!nonEmpty(apiUser?.id)) {
      issues.push({ path: `${product}.apiUser.id`, message: 'is required (or apiUser.id)' });
    }
    if (!nonEmpty(apiUser?.key)) {
      issues.push({ path: `${product}.apiUser.key`, message: 'is required (or apiUser.key)' });
    }
    if (issues.length > 0) throw new ValidationError(issues, { operation: product });
    const made: Credentials = {
      product,
      subscriptionKey: new Secret(subscriptionKey as string),
      apiUser: { id: apiUser?.id as string, key: new Secret(apiUser?.key as string) },
    };
    cache.set(product, made);
    return made;
  };
}

function copyProduct(p: MomoClientOptions['disbursement']) {
  return p
    ? { subscriptionKey: p.subscriptionKey, apiUser: p.apiUser && { ...p.apiUser } }
    : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

function isPositive(value: unknown): boolean {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0);
}

function isCount(value: unknown): boolean {
  return value === undefined || (Number.isInteger(value) && (value as number) >= 0);
}
