import { isApiError, isMomoError, type MomoError } from '../errors';
import { Admission } from './admission/admission';
import type { SharedBudgetSettings } from './admission/shared-budget';
import { landedAnswer, readAnswer } from './answer';
import { attemptError, leftTheClient, pauseError, queueTimeout, tokenFailure } from './attempt';
import type { Authorization, Authorizer, CallInput, CallResult } from './call';
import {
  answerContext,
  type CallPlan,
  callStart,
  deadlineFor,
  headersOf,
  planCall,
  requestInfo,
  withAuthorization,
} from './call-plan';
import type { Config } from './config';
import { callHook } from './logger';
import type { Operation } from './operation';
import type { Answer } from './port';
import { type RetryHooks, type RetryPolicy, retryAfter } from './retry';
import { ChosenSender, type NodePath } from './sender';
import { fateUnknown, tellSends } from './sends';
import { TAG_HEADER } from './simulator-tag';

export type { Authorizer, CallInput, CallResult };

/**
 * Sends operations as a pipeline of named steps (docs/architecture.md):
 * prepare → record → [per attempt: authorize → admission → send (→ replay a 401 once)
 * → release] → interpret, the attempts run by the retry loop.
 */
export class Transport {
  readonly #config: Config;
  readonly #auth: Authorizer;
  readonly #sender: ChosenSender;
  readonly #admission: Admission;

  constructor(
    config: Config,
    auth: Authorizer,
    nodePath?: (maxSockets: number) => Promise<NodePath | undefined>,
    sharedRates?: SharedBudgetSettings,
  ) {
    this.#config = config;
    this.#auth = auth;
    const maxPauseMs = config.retry.maxRetryAfterMs;
    const admission = { ...config.admission, maxPauseMs, shared: sharedRates };
    this.#admission = new Admission(admission, {
      timedOut: queueTimeout,
      pausedTooLong: (plan, n, answer) => pauseError(plan, n, answer, config),
    });
    this.#sender = new ChosenSender({
      fetch: config.fetch,
      nodePath: nodePath && (() => nodePath(config.maxSockets)),
    });
    this.#sender.preload();
  }

  /** Sockets let go of, none cut (`MomoClient.close`); later calls open new ones. */
  close(): void {
    this.#sender.close();
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
   * record, then attempt 1; the retry loop built only once an attempt fails. No async frame,
   * one closure per call here: thousands of calls queued at once each hold this chain.
   */
  #run<T>(plan: CallPlan<T>, beforeSend: (() => Promise<void>) | undefined) {
    if (beforeSend === undefined) return this.#first(plan);
    return beforeSend().then(() => this.#first(plan));
  }

  #first<T>(plan: CallPlan<T>): Promise<CallResult<T>> {
    return this.#attempt(plan, 1).catch((error: unknown) => this.#retried(plan, error));
  }

  /** Attempt 1 failed: the retry loop decides; the final error carries its sends (./sends.ts). */
  async #retried<T>(plan: CallPlan<T>, firstError: unknown): Promise<CallResult<T>> {
    const attempt = (n: number) => this.#attempt(plan, n);
    try {
      return await retryAfter(firstError, attempt, this.#policy(plan), this.#retryHooks(plan));
    } catch (error) {
      if (error !== plan.signal?.reason) {
        const sends = { reached: plan.sent > 0, fateUnknown: plan.fateUnknown };
        tellSends(error, plan.referenceId, sends, plan.lastReached);
      }
      throw error;
    }
  }

  #policy(plan: CallPlan<unknown>): RetryPolicy {
    const { retry } = this.#config;
    const maxRetries = plan.options.maxRetries;
    return maxRetries === undefined ? retry : { ...retry, maxRetries };
  }

  #retryHooks(plan: CallPlan<unknown>): RetryHooks {
    const { op, referenceId } = plan;
    const config = this.#config;
    return {
      signal: plan.signal,
      // An answer that proves an earlier attempt landed is never worth repeating.
      landed: (error) => isApiError(error) && landedAnswer(op, error),
      // maxRetries counts sends: an attempt that never left the client is no retry.
      counts: leftTheClient,
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
    };
  }

  /** One attempt: an exchange, then interpret its answer. */
  async #attempt<T>(plan: CallPlan<T>, n: number): Promise<CallResult<T>> {
    const trace = plan.trace?.attempt(n);
    const sentBefore = plan.sent;
    let status: number | undefined;
    try {
      const answer = await this.#exchange(plan, n);
      status = answer.status;
      const result = readAnswer(plan.op, answer, answerContext(plan, n), this.#config); // interpret
      trace?.end({ status });
      return result;
    } catch (error) {
      plan.lastReached = plan.sent > sentBefore;
      if (plan.lastReached && fateUnknown(error)) plan.fateUnknown = true;
      // An HTTP error answer is told by its status (semantic conventions: error.type is the
      // status code); the error class only when no answer, or an unreadable one, came.
      trace?.end(status !== undefined && status >= 400 ? { status } : { status, error });
      throw error;
    }
  }

  /**
   * authorize → admission → send, the slot released in this one `finally`: nothing runs
   * between the admission and the `try`. The authorization comes first, so that an attempt
   * waiting for a token holds no slot and takes its share of a rate only as it leaves; the
   * token request itself passes no admission (`limited: false`). A 401 on a token that may
   * be stale is replayed once (replay401).
   */
  async #exchange(plan: CallPlan<unknown>, n: number): Promise<Answer> {
    let deadline = deadlineFor(plan);
    const pending = this.#authorize(plan, n);
    const auth = pending instanceof Promise ? await pending : pending;
    const admission = plan.op.limited === false ? undefined : this.#admission;
    const lane = admission?.lane(plan.op, plan.options);
    const queued = lane && admission?.admit(lane, plan, n, deadline, plan.input.queuedUntil);
    // Moved later by any time the provider held the class meanwhile (a pause is never spent).
    if (queued !== undefined) deadline = await queued;
    let answer: Answer | undefined;
    try {
      answer = await this.#send(plan, n, auth, deadline);
      if (answer.status === 401 && auth.refused !== undefined) {
        answer = await this.#replay401(plan, n, auth.refused);
      }
      return answer;
    } finally {
      if (lane) admission?.release(lane, answer);
    }
  }

  /**
   * The token was refused: drop it, then send once more with a new one, under a new
   * deadline. A token older than the refusal (another process's, in a shared store) may
   * be refused too (a key rotation): it is dropped in turn (only if the store still holds
   * it) and one new token fetched for every process (the store's lock), sent once more.
   */
  async #replay401(plan: CallPlan<unknown>, n: number, refused: () => Promise<void>) {
    const refusedAt = Date.now();
    await refused();
    let auth = await this.#authorize(plan, n);
    let answer = await this.#send(plan, n, auth, deadlineFor(plan));
    const again = auth.refused;
    const older = (auth.issuedAt ?? refusedAt) < refusedAt;
    if (answer.status === 401 && again !== undefined && again !== refused && older) {
      await again();
      auth = await this.#authorize(plan, n);
      answer = await this.#send(plan, n, auth, deadlineFor(plan));
    }
    return answer;
  }

  /** A failed token request fails the attempt as an error of this call (tokenFailure). */
  #authorize(plan: CallPlan<unknown>, n: number): Promise<Authorization> | Authorization {
    const { op, credentials, options } = plan;
    if (credentials === undefined) return NO_AUTHORIZATION;
    const auth = this.#auth.authorization(op as Operation, credentials, options);
    if (!(auth instanceof Promise)) return auth;
    return auth.catch((error: unknown) => {
      throw tokenFailure(error, plan, n);
    });
  }

  /** One exchange through the chosen sender, told to the hooks; a failure becomes a MomoError. */
  async #send(
    plan: CallPlan<unknown>,
    n: number,
    auth: Authorization,
    deadline: number,
  ): Promise<Answer> {
    const config = this.#config;
    const { op, path, referenceId } = plan;
    const { onRequest, onResponse } = config.hooks;
    const headers = headersOf(plan, config);
    const tag = plan.options.tag;
    // Only when the client was set up for the simulator (option simulatorTags), never inferred.
    if (tag !== undefined && config.simulatorTags) headers[TAG_HEADER] = encodeURIComponent(tag);
    const started = onResponse && Date.now();
    if (config.debug)
      config.log('debug', `${op.method} ${path}`, { operation: op.name, referenceId });
    if (onRequest) callHook(onRequest, requestInfo(plan, n));
    let answer: Answer | undefined;
    let failure: unknown;
    plan.sent++;
    try {
      answer = await this.#sender.send({
        url: plan.url,
        method: op.method,
        headers: withAuthorization(headers, auth.value),
        body: plan.body,
        deadline,
        signal: plan.signal,
      });
    } catch (error) {
      failure = attemptError(error, plan, n);
    }
    if (onResponse) {
      const durationMs = Date.now() - (started as number);
      const reported = isMomoError(failure) ? { error: failure } : {};
      callHook(onResponse, {
        ...requestInfo(plan, n),
        status: answer?.status,
        durationMs,
        ...reported,
      });
    }
    if (answer === undefined) throw failure;
    return answer;
  }
}

const NO_AUTHORIZATION: Authorization = { value: undefined };
