/**
 * Business refusals: answers that refuse the request itself (a target environment or a
 * currency the account does not take, an unknown party, a callback host not allowed).
 * The service sends some of them with 500 (MTN answers a wrong target environment or
 * currency so), yet sending the same request again cannot succeed: they are never
 * retried, and their message says what was sent and what to change. Nothing here ever
 * reads a secret: only the target environment, the currency, the callback host and the
 * codes the service sent.
 */

import { FailureReason } from '../contracts/failure-reason';
import { parseUrl } from './url';

/**
 * Spec 7.1 codes that refuse the request for good: every FailureReason but those a retry
 * alone may cure (SERVICE_UNAVAILABLE and INTERNAL_PROCESSING_ERROR: retryable, nothing for
 * the payer to do), so both lists cannot drift apart, and the codes FailureReason does not
 * class.
 */
const REFUSAL_CODES: ReadonlySet<string> = new Set([
  ...Object.entries(FailureReason)
    .filter(([, { retryable, payerActionable }]) => payerActionable || !retryable)
    .map(([code]) => code),
  'TRANSACTION_CANCELED.',
  'TRANSACTION_NOT_COMPLETED',
  'TRANSACTION_NOT_FOUND',
  'INFORMATIONAL_SCOPE_INSTRUCTION',
  'MISSING_SCOPE_INSTRUCTION',
  'MORE_THAN_ONE_FINANCIAL_SCOPE_NOT_SUPPORTED',
  'UNSUPPORTED_SCOPE_COMBINATION',
  'CONSENT_MISMATCH',
  'UNSUPPORTED_SCOPE',
  'NOT_FOUND',
]);

/** Spec 7.2 categories that refuse the request (`internal` and `ServiceUnavailable` stay transient). */
const REFUSAL_CATEGORIES: ReadonlySet<string> = new Set([
  'BusinessRule',
  'Validation',
  'Authorisation',
  'Identification',
]);

/** True for an answer whose code or category refuses the request whatever its HTTP status. */
export function isBusinessRefusal(error: {
  code?: string | undefined;
  category?: string | undefined;
}): boolean {
  if (error.category !== undefined) return REFUSAL_CATEGORIES.has(error.category);
  return error.code !== undefined && REFUSAL_CODES.has(error.code);
}

/** The provider's sandbox, the one platform known to take a single fixed currency (EUR). */
const PROVIDER_SANDBOX_HOST = 'sandbox.momodeveloper.mtn.com';

/** What the client sent that a refusal may be about (never a secret). */
export interface SentValues {
  targetEnvironment: string;
  /** The client's `baseUrl`: which platform refused. */
  baseUrl?: string | undefined;
  /** The encoded request body, read only for its `currency`. */
  requestBody?: string | undefined;
  callbackUrl?: string | undefined;
}

export interface RefusedAnswer {
  status: number;
  operation: string;
  code?: string | undefined;
  serverMessage?: string | undefined;
}

/** What to fix, for the refusals and 401s this module knows; undefined for the others. */
export function explainRefusal(answer: RefusedAnswer, sent: SentValues): string | undefined {
  if (answer.status === 401) return explainUnauthorized(answer);
  const environment = sent.targetEnvironment;
  switch (answer.code) {
    case 'NOT_ALLOWED_TARGET_ENVIRONMENT':
      return (
        `the service refused the target environment "${environment}" (option targetEnvironment, ` +
        `header X-Target-Environment): the sandbox expects "sandbox", production your ` +
        `country's value (e.g. "mtnuganda"). Not retried`
      );
    case 'INVALID_CURRENCY': {
      const currency = currencyOf(sent.requestBody);
      const what = currency === undefined ? 'the currency' : `the currency "${currency}"`;
      const providerSandbox =
        environment === 'sandbox' && hostNameOf(sent.baseUrl) === PROVIDER_SANDBOX_HOST;
      const expected = providerSandbox
        ? `the provider's sandbox accepts only "EUR"`
        : `send the account's own currency (getBalance() names it)`;
      return `the service refused ${what} in target environment "${environment}": ${expected}. Not retried`;
    }
    case 'INVALID_CALLBACK_URL_HOST':
      return (
        `the service refused the callback host ${hostOf(sent.callbackUrl) ?? '(none sent)'}: it ` +
        `must be the API user's providerCallbackHost (in the sandbox, the host given when the ` +
        `API user was created). Not retried`
      );
    case 'NOT_ALLOWED':
      return (
        `the service does not allow this operation for this API user and subscription in ` +
        `target environment "${environment}". Not retried`
      );
    case 'PAYEE_NOT_FOUND':
    case 'PAYER_NOT_FOUND':
      return `the ${answer.code === 'PAYEE_NOT_FOUND' ? 'payee' : 'payer'} is not known to the service: check partyIdType and partyId. Not retried`;
    default:
      return undefined;
  }
}

const PRODUCT_OF_OPERATION = /^(disbursement|collection|remittance)\./;
/** How every credential hint ends. */
const ISSUED_FOR = ', and that baseUrl is the environment they were issued for';

/** The product whose credentials an operation uses (a consent call: Collection's), if any. */
function productOf(operation: string): string | undefined {
  return (
    PRODUCT_OF_OPERATION.exec(operation)?.[1] ??
    (operation.startsWith('consent.') ? 'collection' : undefined)
  );
}

/** A client option as the hints name it: the product's own, or the shared one. */
const optionOf = (product: string | undefined, name: string) =>
  product ? `${product}.${name} (or ${name})` : name;

/**
 * A 401 names the credential the service named: the subscription key
 * (`invalid_subscription_key`, "Access denied due to invalid subscription key"), or the
 * API user and its key (`login_failed`, "invalid API user"). Undefined when the answer
 * names neither.
 */
function explainUnauthorized(answer: RefusedAnswer): string | undefined {
  const said = `${answer.code ?? ''} ${answer.serverMessage ?? ''}`.toLowerCase();
  const product = productOf(answer.operation);
  if (/subscription[ _]key/.test(said)) {
    return (
      `the service refused the subscription key${product ? ` of ${product}` : ''}: check ` +
      `${optionOf(product, 'subscriptionKey')} (the MOMO_SUBSCRIPTION_KEY variable for the command line) ` +
      `and that it belongs to a product you subscribed to`
    );
  }
  if (/login_failed|api[ _]?user|api[ _]?key|invalid_client/.test(said)) {
    return `the service refused the API user id or its API key: check ${optionOf(product, 'apiUser')} (MOMO_API_USER, MOMO_API_KEY)${ISSUED_FOR}`;
  }
  return undefined;
}

/**
 * What a 401 on a Basic-authenticated token request means when the answer names no
 * credential: the product's API user id and key, or its subscription key, were refused
 * (never printed, only named). Undefined for any other operation.
 */
export function refusedCredentials(operation: string): string | undefined {
  const product = /^\w+\.getAccessToken$|^consent\.getToken$/.test(operation)
    ? productOf(operation)
    : undefined;
  if (!product) return undefined;
  return (
    `${product}: the service refused the API user id/API key (Basic) or the subscription key of ${product}. ` +
    `Check ${optionOf(product, 'apiUser')} and ${optionOf(product, 'subscriptionKey')}${ISSUED_FOR}`
  );
}

function currencyOf(body: string | undefined): string | undefined {
  if (body === undefined || !body.startsWith('{')) return undefined;
  try {
    const currency = (JSON.parse(body) as { currency?: unknown }).currency;
    return typeof currency === 'string' ? currency.slice(0, 8) : undefined;
  } catch {
    return undefined;
  }
}

/** The host of a URL the SDK sent to (`host:port`), for a message; never credentials. */
export function hostOf(url: string | undefined): string | undefined {
  return parseUrl(url)?.host;
}

function hostNameOf(url: string | undefined): string | undefined {
  return parseUrl(url)?.hostname;
}
