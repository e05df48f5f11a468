import { withoutTrailingSlashes } from '../core/url';
import { isDecimal } from './decimal';
import { HOST_NAME, hostList } from './hosts';
import { limitsProblem } from './limits';
import { DEFAULT_PARTNER, type PartnerDirectory, resolvePartners } from './partners';
import type { SimulatorLimits, SimulatorOptions } from './types';

/** A fixed UUID v4, so that a default simulator always has the same API user. */
export const DEFAULT_API_USER_ID = '3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162';

export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly subscriptionKey: string;
  readonly apiUser: { readonly id: string; readonly key: string };
  readonly targetEnvironment: string;
  readonly settleMs: number;
  readonly tokenTtlSeconds: number;
  readonly currency: string;
  readonly initialBalance: string;
  readonly callbackFetch: typeof fetch | undefined;
  readonly deliveryNotificationWindowMs: number;
  readonly consentIntervalSeconds: number;
  readonly consentExpiresInSeconds: number;
  /** The configured API user's providerCallbackHost (lower case), if given. */
  readonly providerCallbackHost: string | undefined;
  /** Refuse creating calls whose X-Callback-Url host is not the caller's providerCallbackHost. */
  readonly enforceCallbackHost: boolean;
  /** Further hosts the simulator calls back (lower case; `'*'`: any). */
  readonly callbackHosts: readonly string[];
  /** The provider's caps (none when empty). */
  readonly limits: SimulatorLimits;
  /** The partners: the one above (`default`) and `partners`' (docs/simulator.md, "Several partners"). */
  readonly partners: PartnerDirectory;
}

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const resolved: Omit<ResolvedOptions, 'partners'> = {
    baseUrl: withoutTrailingSlashes(options.baseUrl ?? 'https://sandbox.momo.test'),
    subscriptionKey: options.subscriptionKey ?? 'sim-subscription-key',
    apiUser: { id: DEFAULT_API_USER_ID, key: 'sim-api-key', ...options.apiUser },
    targetEnvironment: options.targetEnvironment ?? 'sandbox',
    settleMs: options.settleMs ?? 100,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    currency: options.currency ?? 'EUR',
    initialBalance: options.initialBalance ?? '1000000.00',
    callbackFetch: options.callbackFetch,
    deliveryNotificationWindowMs: options.deliveryNotificationWindowMs ?? 24 * 60 * 60 * 1000,
    consentIntervalSeconds: options.consentIntervalSeconds ?? 1,
    consentExpiresInSeconds: options.consentExpiresInSeconds ?? 120,
    providerCallbackHost: options.providerCallbackHost?.toLowerCase(),
    enforceCallbackHost: options.enforceCallbackHost ?? false,
    callbackHosts: hostList(options.callbackHosts, 'createSimulator: callbackHosts', true),
    limits: { ...options.limits },
  };
  const limits = limitsProblem(options.limits);
  check(limits === undefined, `${limits?.field} ${limits?.message}`);
  const partners = resolvePartners(
    {
      name: DEFAULT_PARTNER,
      subscriptionKeys: [resolved.subscriptionKey],
      apiUsers: [resolved.apiUser],
      limits: resolved.limits,
    },
    options.partners,
  );
  check(URL.canParse(resolved.baseUrl), 'baseUrl must be an absolute URL');
  check(nonNegative(resolved.settleMs), 'settleMs must be a finite number >= 0');
  check(nonNegative(resolved.tokenTtlSeconds), 'tokenTtlSeconds must be a finite number >= 0');
  check(/^[A-Z]{3}$/.test(resolved.currency), 'currency must be three capitals');
  check(isDecimal(resolved.initialBalance), 'initialBalance must be a decimal string');
  check(
    nonNegative(resolved.deliveryNotificationWindowMs),
    'deliveryNotificationWindowMs must be a finite number >= 0',
  );
  check(
    nonNegative(resolved.consentIntervalSeconds),
    'consentIntervalSeconds must be a finite number >= 0',
  );
  check(
    nonNegative(resolved.consentExpiresInSeconds),
    'consentExpiresInSeconds must be a finite number >= 0',
  );
  check(
    resolved.providerCallbackHost === undefined || HOST_NAME.test(resolved.providerCallbackHost),
    'providerCallbackHost must be a bare host name such as partner.example',
  );
  check(typeof resolved.enforceCallbackHost === 'boolean', 'enforceCallbackHost must be a boolean');
  const clock = options.clock as { now?: unknown } | undefined;
  check(
    clock === undefined || (typeof clock === 'object' && typeof clock?.now === 'function'),
    'clock must be an object with now() (epoch milliseconds)',
  );
  return { ...resolved, partners };
}

function nonNegative(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`createSimulator: ${message}`);
}
