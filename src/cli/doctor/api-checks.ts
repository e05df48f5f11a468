import { MomoClient } from '../../client';
import type { ProductName } from '../../core/options';
import { isApiError, isConnectionError, isMomoError, isNotFoundError } from '../../errors';
import { Sandbox } from '../../sandbox/sandbox';
import { credentialFromEnv, refusedCredential } from '../env';
import {
  type EnvironmentProbe,
  environmentFix,
  isEnvironmentRefusal,
  probeEnvironment,
} from '../environment';
import type { Io } from '../output';
import type { Check, CheckResult } from './report';

export interface DoctorConfig {
  readonly baseUrl: string;
  readonly targetEnvironment: string;
  readonly timeoutMs: number;
  readonly env: Io['env'];
}

/** A product's credentials from the environment, or the variables still missing. */
export function productCredentials(env: Io['env'], product: ProductName) {
  const subscriptionKey = credentialFromEnv(env, product, 'SUBSCRIPTION_KEY');
  const id = credentialFromEnv(env, product, 'API_USER');
  const key = credentialFromEnv(env, product, 'API_KEY');
  const missing = [subscriptionKey, id, key].filter((c) => !c.value).map((c) => c.variable);
  return { subscriptionKey, id, key, missing };
}

/**
 * A product's token, then a read that needs the target environment: two lines. Sent once
 * each (no retries): the doctor reports what the service said, and fast.
 */
export async function productChecks(
  config: DoctorConfig,
  product: ProductName,
): Promise<{
  checks: Check[];
  probe: EnvironmentProbe | undefined;
}> {
  const { subscriptionKey, id, key } = productCredentials(config.env, product);
  const momo = new MomoClient({
    baseUrl: config.baseUrl,
    targetEnvironment: config.targetEnvironment,
    [product]: {
      subscriptionKey: subscriptionKey.value ?? '',
      apiUser: { id: id.value ?? '', key: key.value ?? '' },
    },
    maxRetries: 0,
    timeoutMs: config.timeoutMs,
    logLevel: 'silent',
  });
  const tokenName = `${product} credentials`;
  const environmentName = `${product} environment`;
  try {
    const token = await momo[product].getAccessToken();
    const tokenCheck: Check = {
      name: tokenName,
      status: 'ok',
      message: `subscription key and API user accepted: token valid for ${token.expiresIn} s`,
    };
    try {
      const probe = await probeEnvironment(momo, product);
      const read =
        probe.via === 'balance'
          ? `balance ${probe.availableBalance} ${probe.currency}`
          : 'a status lookup answered';
      return {
        checks: [
          tokenCheck,
          {
            name: environmentName,
            status: 'ok',
            message: `'${config.targetEnvironment}' accepted (${read})`,
          },
        ],
        probe,
      };
    } catch (error) {
      const failure: CheckResult = isEnvironmentRefusal(error)
        ? {
            status: 'fail',
            message: environmentFix(config.targetEnvironment),
            fix: 'MOMO_TARGET_ENVIRONMENT',
          }
        : { status: 'fail', message: describe(error) };
      return { checks: [tokenCheck, { name: environmentName, ...failure }], probe: undefined };
    }
  } catch (error) {
    const refused = refusedCredential(error, config.env, product);
    const fix = refused?.match(/change (MOMO_\w+)/)?.[1];
    const tokenCheck: Check = refused
      ? {
          name: tokenName,
          status: 'fail',
          message: refused.replace(`${product}: `, ''),
          ...(fix ? { fix } : {}),
        }
      : { name: tokenName, status: 'fail', message: describe(error) };
    return {
      checks: [
        tokenCheck,
        { name: environmentName, status: 'skip', message: 'needs a token first' },
      ],
      probe: undefined,
    };
  }
}

/**
 * The callback URL (MOMO_CALLBACK_URL): https outside the sandbox; in the sandbox its
 * host must be the API user's providerCallbackHost, read back from the provisioning API.
 */
export async function callbackCheck(
  config: DoctorConfig,
  product: ProductName | undefined,
): Promise<CheckResult> {
  const FIX = 'MOMO_CALLBACK_URL';
  const raw = config.env.MOMO_CALLBACK_URL;
  if (!raw)
    return {
      status: 'skip',
      message: `${FIX} not set: results are polled, no callback is asked for`,
    };
  let url: URL;
  try {
    url = new URL(raw.replaceAll('{referenceId}', 'reference-id'));
  } catch {
    return { status: 'fail', message: `${FIX} is not an absolute URL: change it`, fix: FIX };
  }
  const sandbox = config.targetEnvironment === 'sandbox';
  if (url.protocol !== 'https:' && !sandbox) {
    return {
      status: 'fail',
      message: `${url.protocol.replace(':', '')} callback URL outside the sandbox: the provider calls https only; change ${FIX} to https`,
      fix: FIX,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { status: 'fail', message: `${FIX} must be http(s): change it`, fix: FIX };
  }
  if (!sandbox) return { status: 'ok', message: `https, host ${url.hostname}` };
  if (!product)
    return { status: 'skip', message: 'no API user configured to compare its callback host with' };
  const { subscriptionKey, id } = productCredentials(config.env, product);
  const note =
    url.protocol === 'http:' ? ' (http: the sandbox takes it; production needs https)' : '';
  try {
    const user = await new Sandbox({
      baseUrl: config.baseUrl,
      subscriptionKey: subscriptionKey.value ?? '',
      maxRetries: 0,
      timeoutMs: config.timeoutMs,
      logLevel: 'silent',
    }).getUser(id.value ?? '');
    if (user.providerCallbackHost.toLowerCase() === url.hostname.toLowerCase()) {
      return {
        status: url.protocol === 'http:' ? 'warn' : 'ok',
        message: `host ${url.hostname} is the API user's providerCallbackHost${note}`,
      };
    }
    return {
      status: 'fail',
      message:
        `host ${url.hostname} is not the API user's providerCallbackHost ${user.providerCallbackHost}: the sandbox refuses it (INVALID_CALLBACK_URL_HOST); ` +
        `change ${FIX}, or provision a user for that host (sandbox provision --callback-host ${url.hostname})`,
      fix: FIX,
    };
  } catch (error) {
    if (isNotFoundError(error)) {
      return {
        status: 'warn',
        message: `the sandbox has no API user ${id.value} to compare callback hosts with (not made by its provisioning API?)`,
      };
    }
    return { status: 'warn', message: `callback host not compared: ${describe(error)}` };
  }
}

/** The sandbox takes EUR only; elsewhere the account's own currency is what to send. */
export function currencyCheck(
  config: DoctorConfig,
  probe: EnvironmentProbe | undefined,
): CheckResult {
  if (config.targetEnvironment === 'sandbox') {
    return {
      status: 'warn',
      message: `the sandbox takes amounts in EUR only (other currencies fail with INVALID_CURRENCY); production uses the country's currency`,
    };
  }
  return probe?.currency
    ? { status: 'ok', message: `the account's currency is ${probe.currency}: send amounts in it` }
    : { status: 'skip', message: 'no balance read to learn the account currency from' };
}

/** An SDK error's message (never a secret), or what kind of failure it was. */
function describe(error: unknown): string {
  if (isConnectionError(error)) return `no answer: ${error.message}; check MOMO_BASE_URL`;
  if (isApiError(error) || isMomoError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}
