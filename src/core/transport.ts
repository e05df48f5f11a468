import { isMomoError, type MomoError } from '../errors';
import { readAnswer } from './answer';
import { type AttemptPlan, attempt, takeSlot } from './attempt';
import type { Authorization, Authorizer, CallInput, CallResult } from './call';
import type { Config } from './config';
import { callHeaders } from './headers';
import { type FastPath, Http } from './http';
import { Limiter } from './limiter';
import { callHook } from './logger';
import type { Operation } from './operation';
import type { RequestInfo } from './options';
import { contentTypeOf, prepare } from './prepare';
import { chooseReferenceId } from './reference-id';
import { withRetries } from './retry';
import { fillCallbackUrl } from './url';

export type { Authorizer, CallInput, CallResult };

/**
 * Sends operations, top-down: check the input (nothing sent if bad), fix the headers
 * and the reference id once, then attempts through the retry loop; each attempt is
 * authorize → exchange (in-flight limit, deadline) → read the answer.
 */
export class Transport {
  readonly #config: Config;
  readonly #auth: Authorizer;
  readonly #http: Http;
  readonly #limiter: Limiter;

  constructor(
    config: Config,
    auth: Authorizer,
    fastPath?: (maxSockets: number) => Promise<FastPath | undefined>,
  ) {
    this.#config = config;
    this.#auth = auth;
    this.#limiter = new Limiter(config.maxConcurrency);
    this.#http = new Http({
      fetch: config.fetch,
      fastPath: fastPath && (() => fastPath(config.maxSockets)),
    });
    this.#http.preload();
  }

  /** The ValidationError a call with this input would raise, without sending anything. */
  check(op: Operation<unknown, unknown>, input: CallInput): MomoError | undefined {
    try {
      prepare(op, input, this.#config, this.#auth);
      return undefined;
    } catch (error) {
      return error as MomoError;
    }
  }

  /**
   * `beforeSend` runs once the input is checked and before the first attempt leaves
   * (the journal records a creating call there: durable before the request goes out).
   */
  async call<TBody, TResult>(
    op: Operation<TBody, TResult>,
    input: CallInput = {},
    beforeSend?: () => Promise<void>,
  ): Promise<CallResult<TResult>> {
    const config = this.#config;
    const request = prepare(op, input, config, this.#auth); // throws ValidationError: nothing sent
    const options = input.options ?? {};
    // `none` needs no API user (sandbox provisioning creates one): the subscription key only.
    const credentials = op.auth === 'none' ? undefined : config.credentials(op.product);
    const referenceId = op.creates ? chooseReferenceId(options.referenceId) : undefined;
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;

    const authorize = () =>
      credentials
        ? this.#auth.authorization(op as Operation, credentials, options)
        : Promise.resolve<Authorization>({ value: undefined });

    if (beforeSend) await beforeSend();
    // The first attempt takes its in-flight slot, then its authorization, before the
    // headers and the retry loop are built: a call queued behind the limit holds its
    // path, body and ids and little else. (The token request is not limited, so a slot
    // held while a token is fetched starves nothing.)
    const limiter = op.limited === false ? undefined : this.#limiter;
    const first = limiter
      ? await this.#firstAttempt(limiter, authorize, {
          operation: op.name,
          referenceId,
          attempt: 1,
          timeoutMs,
          signal,
        })
      : undefined;

    const { path, body, callbackTemplate } = request;
    const callbackUrl =
      op.callback && callbackTemplate !== undefined
        ? fillCallbackUrl(callbackTemplate, referenceId ?? '')
        : undefined;
    const headers = callHeaders({
      op,
      subscriptionKey: credentials?.subscriptionKey ?? config.subscriptionKey(op.product),
      targetEnvironment: config.targetEnvironment,
      institution: config.institution,
      referenceId,
      callbackUrl,
      contentType: body === undefined ? undefined : contentTypeOf(op),
      own: input.headers,
      extra: options.headers,
    });
    const url = config.baseUrl + path;

    const info = (n: number): RequestInfo => ({
      operation: op.name,
      method: op.method,
      path,
      referenceId,
      attempt: n,
    });
    const once = async (n: number): Promise<CallResult<TResult>> => {
      for (let replayed = false; ; replayed = true) {
        const ready = n === 1 && !replayed ? first : undefined;
        if (ready?.failure !== undefined) throw ready.failure.error;
        const auth = ready?.auth ?? (await authorize());
        const started = Date.now();
        config.log('debug', `${op.method} ${path}`, { operation: op.name, referenceId });
        callHook(config.hooks.onRequest, info(n));
        const plan = { operation: op.name, referenceId, attempt: n, timeoutMs, signal };
        const exchange = {
          url,
          method: op.method,
          headers: auth.value === undefined ? headers : { ...headers, Authorization: auth.value },
          body,
        };
        let answer: Awaited<ReturnType<typeof attempt>>;
        try {
          answer = await attempt(this.#http, limiter, plan, exchange, ready);
        } catch (error) {
          const durationMs = Date.now() - started;
          const failure = isMomoError(error) ? { error } : {};
          callHook(config.hooks.onResponse, {
            ...info(n),
            status: undefined,
            durationMs,
            ...failure,
          });
          throw error;
        }
        const durationMs = Date.now() - started;
        callHook(config.hooks.onResponse, { ...info(n), status: answer.status, durationMs });
        if (answer.status === 401 && auth.refused && !replayed) {
          await auth.refused(); // a stale token: drop it and replay once with a new one
          continue;
        }
        return readAnswer(op, answer, { ...plan, callbackUrl, requestBody: body }, config);
      }
    };

    return withRetries(
      once,
      { ...config.retry, maxRetries: options.maxRetries ?? config.retry.maxRetries },
      {
        signal,
        onRetry: (n, delayMs, error) => {
          const reason = (error as MomoError).name;
          config.log('warn', `${op.name}: retrying after ${reason}`, {
            operation: op.name,
            referenceId,
            attempt: n,
            delayMs,
          });
          callHook(config.hooks.onRetry, { ...info(n), delayMs, error: error as MomoError });
        },
      },
    );
  }

  /**
   * Takes the first attempt's slot (at once when one is free), then authorizes it. A
   * failure is not thrown here but handed to the first attempt, so the retry loop
   * treats it as it treats any other. The deadline counts the wait in the queue, not
   * the wait for a token.
   */
  #firstAttempt(
    limiter: Limiter,
    authorize: () => Promise<Authorization>,
    plan: AttemptPlan,
  ): Promise<FirstAttempt> {
    // Promise chains rather than async functions: a queued call holds one frame less.
    const authorized = (deadline: number) =>
      authorize().then(
        (auth): FirstAttempt => ({ auth, deadline }),
        (error: unknown): FirstAttempt => {
          limiter.release(); // taken, never used
          return { failure: { error } };
        },
      );
    if (limiter.tryAcquire()) return authorized(Date.now() + plan.timeoutMs);
    return takeSlot(limiter, plan).then(authorized, (error: unknown) => ({ failure: { error } }));
  }
}

/** The first attempt, made ready: authorized with its slot taken, or what stopped it. */
type FirstAttempt =
  | { auth: Authorization; deadline: number; failure?: undefined }
  | { failure: { error: unknown }; auth?: undefined; deadline?: undefined };
