import { isApiError, isMomoError, type MomoError } from '../errors';
import { landedAnswer, readAnswer } from './answer';
import { type AttemptPlan, sendFailure, takeSlot } from './attempt';
import type { Authorization, Authorizer, CallInput, CallResult } from './call';
import { type CallPlan, callStart, headersOf, planCall, requestInfo } from './call-plan';
import type { Config } from './config';
import { Limiter } from './limiter';
import { callHook } from './logger';
import type { Operation } from './operation';
import type { Answer } from './port';
import { withRetries } from './retry';
import { ChosenSender, type NodePath } from './sender';
import { isTransient } from './transient';

export type { Authorizer, CallInput, CallResult };

/**
 * Sends operations as a pipeline of named steps (docs/architecture.md):
 * prepare → record → [per attempt: acquire a slot → authorize → send (→ replay a 401
 * once) → release] → interpret, the attempts run by the retry loop.
 */
export class Transport {
  readonly #config: Config;
  readonly #auth: Authorizer;
  readonly #sender: ChosenSender;
  readonly #limiter: Limiter;

  constructor(
    config: Config,
    auth: Authorizer,
    nodePath?: (maxSockets: number) => Promise<NodePath | undefined>,
  ) {
    this.#config = config;
    this.#auth = auth;
    this.#limiter = new Limiter(config.maxConcurrency);
    this.#sender = new ChosenSender({
      fetch: config.fetch,
      nodePath: nodePath && (() => nodePath(config.maxSockets)),
    });
    this.#sender.preload();
  }

  /** The ValidationError a call with this input would raise, without sending anything. */
  check(op: Operation<unknown, unknown>, input: CallInput): MomoError | undefined {
    try {
      planCall(op, input, this.#config, this.#auth);
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
    const plan = planCall(op as Operation<unknown, TResult>, input, config, this.#auth); // prepare
    const telemetry = config.telemetry;
    if (telemetry === undefined) return this.#run(plan, beforeSend);
    const trace = telemetry.call(callStart(plan, config));
    plan.trace = trace;
    return this.#run(plan, beforeSend).then(
      (result) => {
        trace.end({ status: result.status });
        return result;
      },
      (error: unknown) => {
        trace.end({ status: isApiError(error) ? error.status : undefined, error });
        throw error;
      },
    );
  }

  /**
   * record, then the attempts under the retry loop. The first attempt's slot is waited
   * for before the loop is built, so that a call queued behind the limit holds its plan
   * and a queue entry, not a retry loop (10,000 queued deposits: 3.5 KB each after GC,
   * 6 KB with the loop built first).
   * It is handed to the first attempt, whose `finally` releases it; should the loop fail
   * before that attempt takes it, this `catch` gives it back.
   */
  async #run<T>(plan: CallPlan<T>, beforeSend: (() => Promise<void>) | undefined) {
    if (beforeSend) await beforeSend();
    if (plan.op.limited !== false) {
      // A failed wait (queue timeout, abort) is the first attempt's failure: the retry loop decides.
      plan.firstSlot = await takeSlot(this.#limiter, this.#attemptPlan(plan, 1)).catch(
        (error: unknown) => ({ error }),
      );
    }
    return this.#retried(plan).catch((error: unknown) => {
      if (typeof plan.firstSlot === 'number') {
        plan.firstSlot = undefined;
        this.#limiter.release();
      }
      throw error;
    });
  }

  #retried<T>(plan: CallPlan<T>): Promise<CallResult<T>> {
    const { op, options, referenceId } = plan;
    const config = this.#config;
    return withRetries(
      (n) => this.#attempt(plan, n),
      { ...config.retry, maxRetries: options.maxRetries ?? config.retry.maxRetries },
      {
        signal: plan.signal,
        // An answer that proves an earlier attempt landed is never worth repeating.
        retryable: (error) => isTransient(error) && !(isApiError(error) && landedAnswer(op, error)),
        onRetry: (n, delayMs, error) => {
          config.log('warn', `${op.name}: retrying after ${error.name}`, {
            operation: op.name,
            referenceId,
            attempt: n,
            delayMs,
          });
          callHook(config.hooks.onRetry, {
            ...requestInfo(plan, n),
            delayMs,
            error: error as MomoError,
          });
        },
      },
    );
  }

  /** One attempt: an exchange, then interpret its answer. */
  async #attempt<T>(plan: CallPlan<T>, n: number): Promise<CallResult<T>> {
    const trace = plan.trace?.attempt(n);
    let status: number | undefined;
    try {
      const answer = await this.#exchange(plan, n);
      status = answer.status;
      const context = { ...this.#attemptPlan(plan, n), callbackUrl: plan.callbackUrl };
      const result = readAnswer(plan.op, answer, context, this.#config); // interpret
      trace?.end({ status });
      return result;
    } catch (error) {
      // An HTTP error answer is told by its status (semantic conventions: error.type is the
      // status code); the error class only when no answer, or an unreadable one, came.
      trace?.end(status !== undefined && status >= 400 ? { status } : { status, error });
      throw error;
    }
  }

  /**
   * acquire a slot (the first attempt's was taken ahead by #run) → authorize → send, with
   * the slot released in this `finally` whatever throws after it is taken. The token
   * request itself takes no slot (`limited: false`), so a slot held while a token is
   * fetched starves nothing.
   */
  async #exchange(plan: CallPlan<unknown>, n: number): Promise<Answer> {
    const attempt = this.#attemptPlan(plan, n);
    if (plan.op.limited === false)
      return this.#authorizedSend(plan, attempt, freshDeadline(attempt));
    const taken = plan.firstSlot;
    plan.firstSlot = undefined;
    if (typeof taken === 'object') throw taken.error;
    const deadline = taken ?? (await takeSlot(this.#limiter, attempt));
    try {
      return await this.#authorizedSend(plan, attempt, deadline);
    } finally {
      this.#limiter.release();
    }
  }

  /** authorize → send; a 401 on a token that may be stale is replayed once (replay401). */
  async #authorizedSend(plan: CallPlan<unknown>, attempt: AttemptPlan, deadline: number) {
    const auth = await this.#authorize(plan);
    const answer = await this.#send(plan, attempt, auth, deadline);
    if (answer.status !== 401 || auth.refused === undefined) return answer;
    return this.#replay401(plan, attempt, auth.refused);
  }

  /** The token was refused: drop it, then send once more with a new one, under a new deadline. */
  async #replay401(plan: CallPlan<unknown>, attempt: AttemptPlan, refused: () => Promise<void>) {
    await refused();
    const auth = await this.#authorize(plan);
    return this.#send(plan, attempt, auth, freshDeadline(attempt));
  }

  #authorize(plan: CallPlan<unknown>): Promise<Authorization> {
    const { op, credentials, options } = plan;
    if (credentials === undefined) return Promise.resolve(NO_AUTHORIZATION);
    return this.#auth.authorization(op as Operation, credentials, options);
  }

  /** One exchange through the chosen sender, told to the hooks; a failure becomes a MomoError. */
  async #send(
    plan: CallPlan<unknown>,
    attempt: AttemptPlan,
    auth: Authorization,
    deadline: number,
  ): Promise<Answer> {
    const config = this.#config;
    const { op, path, referenceId } = plan;
    const info = requestInfo(plan, attempt.attempt);
    const headers = headersOf(plan, config);
    const started = Date.now();
    config.log('debug', `${op.method} ${path}`, { operation: op.name, referenceId });
    callHook(config.hooks.onRequest, info);
    let answer: Answer;
    try {
      answer = await this.#sender.send({
        url: plan.url,
        method: op.method,
        headers: auth.value === undefined ? headers : { ...headers, Authorization: auth.value },
        body: plan.body,
        deadline,
        signal: plan.signal,
      });
    } catch (error) {
      const failure = sendFailure(error, attempt);
      const durationMs = Date.now() - started;
      const reported = isMomoError(failure) ? { error: failure } : {};
      callHook(config.hooks.onResponse, { ...info, status: undefined, durationMs, ...reported });
      throw failure;
    }
    const durationMs = Date.now() - started;
    callHook(config.hooks.onResponse, { ...info, status: answer.status, durationMs });
    return answer;
  }

  #attemptPlan(plan: CallPlan<unknown>, n: number): AttemptPlan {
    const { op, referenceId, timeoutMs, signal } = plan;
    return { operation: op.name, referenceId, attempt: n, timeoutMs, signal };
  }
}

const NO_AUTHORIZATION: Authorization = { value: undefined };

/** A deadline starting now. */
function freshDeadline(attempt: AttemptPlan): number {
  return Date.now() + attempt.timeoutMs;
}
