import ky, { TimeoutError as KyTimeoutError } from 'ky';
import { v4 as uuidv4 } from 'uuid';
import { ConnectionError, type MomoError, TimeoutError } from '../errors';
import { parseWith } from '../schemas/validate';
import type { Config, Credentials } from './config';
import {
  createApiError,
  createUnexpectedResponseError,
  readErrorFields,
  type Scrubber,
} from './error-factory';
import { duplicateReferenceId, type Operation } from './operation';
import type { ConsentRequestOptions, RequestOptions } from './options';
import { prepare } from './prepare';
import { type AttemptOutcome, isRetryableStatus, parseRetryAfter, withRetries } from './retry';

export interface CallInput {
  params?: Record<string, string>;
  body?: unknown;
  /** Headers an operation itself sets (e.g. Language); the caller's never replace them. */
  headers?: Record<string, string>;
  options?: RequestOptions | Partial<ConsentRequestOptions> | undefined;
}

export interface CallResult<T> {
  data: T;
  status: number;
  headers: Headers;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  /** A retry met 409 RESOURCE_ALREADY_EXIST: an earlier attempt of this call landed. */
  landedEarlier: boolean;
}

/** Supplies the Authorization header of an operation; `refused` is told about a 401. */
export interface Authorizer {
  authorization(
    op: Operation<unknown, unknown>,
    credentials: Credentials,
    options: CallInput['options'],
  ): Promise<{ value: string; refused?(): Promise<void> }>;
}

const OWN_HEADERS = new Set([
  'authorization',
  'ocp-apim-subscription-key',
  'x-reference-id',
  'x-target-environment',
  'x-callback-url',
  'x-correlationid',
  'x-account-holding-institution-identifier',
  'content-type',
  'language',
]);

/** Sends operations: validation, headers, auth, timeouts, the retry policy, error mapping. */
export class Transport {
  readonly #config: Config;
  readonly #auth: Authorizer;

  constructor(config: Config, auth: Authorizer) {
    this.#config = config;
    this.#auth = auth;
  }

  /** The ValidationError a call with this input would raise, without sending anything. */
  check(op: Operation<unknown, unknown>, input: CallInput): MomoError | undefined {
    try {
      prepare(op, input, this.#config);
      return undefined;
    } catch (error) {
      return error as MomoError;
    }
  }

  async call<TBody, TResult>(
    op: Operation<TBody, TResult>,
    input: CallInput = {},
  ): Promise<CallResult<TResult>> {
    const config = this.#config;
    const request = prepare(op, input, config); // throws ValidationError: nothing sent
    const credentials = config.credentials(op.product);
    const options = input.options ?? {};
    const referenceId = op.creates ? (options.referenceId ?? uuidv4()) : undefined;
    const callbackUrl = op.callback ? request.callbackUrl(referenceId) : undefined;

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    Object.assign(headers, input.headers);
    headers['Ocp-Apim-Subscription-Key'] = credentials.subscriptionKey.reveal();
    const routing = op.routing ?? 'environment';
    if (routing === 'environment') headers['X-Target-Environment'] = config.targetEnvironment;
    if (routing === 'institution') {
      headers['X-Account-Holding-Institution-Identifier'] = config.institution;
    }
    if (referenceId) {
      headers[op.creates === 'correlation' ? 'X-CorrelationID' : 'X-Reference-Id'] = referenceId;
    }
    if (callbackUrl) headers['X-Callback-Url'] = callbackUrl;
    if (request.contentType) headers['Content-Type'] = request.contentType;
    const landed = op.landed ?? (op.creates ? duplicateReferenceId : undefined);

    const context = { operation: op.name, referenceId };
    const signal = options.signal;
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const log = config.log;

    const attempt = async (n: number): Promise<AttemptOutcome<CallResult<TResult>>> => {
      for (let replayed = false; ; replayed = true) {
        const auth = await this.#auth.authorization(op as Operation, credentials, options);
        const started = Date.now();
        log('debug', `${op.method} ${request.path}`, { ...context, attempt: n });
        let response: Response;
        let body: unknown;
        try {
          response = await ky(request.url, {
            method: op.method,
            headers: { ...headers, Authorization: auth.value },
            body: request.body ?? null,
            timeout: timeoutMs,
            retry: 0,
            throwHttpErrors: false,
            fetch: config.fetch,
            ...(signal ? { signal } : {}),
          });
          body = await readBody(response);
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          return { done: false, retryable: true, error: noResponse(error, context) };
        }
        const { status } = response;
        log('debug', `${op.method} ${request.path} -> ${status}`, {
          ...context,
          ms: Date.now() - started,
        });

        if (status === 401 && auth.refused && !replayed) {
          await auth.refused(); // stale token: drop it and replay once with a new one
          continue;
        }
        if (status >= 200 && status < 300) {
          const data = parseResult(op, status, body, context, config.scrubber);
          const result = { data, status, headers: response.headers, referenceId, callbackUrl };
          return { done: true, value: { ...result, landedEarlier: false } };
        }
        const safeBody = config.scrubber.scrubValue(body);
        const landedAnswer = landed?.({ status, code: readErrorFields(safeBody).code }) === true;
        if (landedAnswer && n > 1) {
          log('info', `${op.name}: an earlier attempt landed (${status} on retry)`, context);
          const value = { data: undefined as TResult, status, headers: response.headers };
          return { done: true, value: { ...value, referenceId, callbackUrl, landedEarlier: true } };
        }
        const error = createApiError({
          status,
          body: safeBody,
          headers: response.headers,
          ...context,
          scrubber: config.scrubber,
        });
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        const retryable = !landedAnswer && isRetryableStatus(status);
        return { done: false, retryable, error, retryAfterMs };
      }
    };

    const maxRetries = options.maxRetries ?? config.retry.maxRetries;
    return withRetries(
      attempt,
      { ...config.retry, maxRetries },
      {
        signal,
        onRetry: (n, delayMs, error) =>
          log('warn', `${op.name}: retrying after ${(error as MomoError).name}`, {
            ...context,
            attempt: n,
            delayMs,
          }),
      },
    );
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseResult<T>(
  op: Operation<unknown, T>,
  status: number,
  body: unknown,
  context: { operation: string; referenceId: string | undefined },
  scrubber: Scrubber,
): T {
  if (!op.result) return undefined as T;
  const parsed = parseWith(op.result, body);
  if (parsed.ok) return parsed.value;
  throw createUnexpectedResponseError({
    ...context,
    status,
    body,
    issues: parsed.issues,
    scrubber,
  });
}

/** A transport failure as a ConnectionError whose cause holds no request (and so no headers). */
function noResponse(
  error: unknown,
  context: { operation: string; referenceId: string | undefined },
) {
  const isTimeout = error instanceof KyTimeoutError;
  const original = error as { name?: string; message?: string; cause?: { code?: string } };
  const cause = new Error(original?.message ?? String(error));
  cause.name = original?.name ?? 'Error';
  const code = original?.cause?.code;
  const detail = isTimeout ? 'timed out' : `no response (${code ?? cause.message})`;
  const ref = context.referenceId ? ` (referenceId ${context.referenceId})` : '';
  const Kind = isTimeout ? TimeoutError : ConnectionError;
  return new Kind(`${context.operation}: ${detail}${ref}`, { ...context, cause });
}
