import type { RequestInfo } from '../contracts/hooks';
import type { CallStart, CallTrace } from '../contracts/telemetry';
import type { AnswerContext } from './answer';
import type { Authorizer, CallInput } from './call';
import type { Config, Credentials } from './config';
import { callHeaders } from './headers';
import type { Operation } from './operation';
import { contentTypeOf, prepare } from './prepare';
import { chooseReferenceId } from './reference-id';
import { fillCallbackUrl } from './url';

/**
 * One logical call, checked and fixed once (prepare): what every attempt sends the same.
 * Strings and references only, so a call queued behind the in-flight limit holds little.
 */
export interface CallPlan<T> {
  op: Operation<unknown, T>;
  input: CallInput;
  options: NonNullable<CallInput['options']>;
  path: string;
  url: string;
  body: string | undefined;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  /** Undefined for `auth: 'none'` (sandbox provisioning needs no API user). */
  credentials: Credentials | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Built once the first slot is taken; Authorization is added per exchange. */
  headers: Record<string, string> | undefined;
  /** Set only when the client has `telemetry`. */
  trace: CallTrace | undefined;
  /** Exchanges handed to the wire so far, over all attempts (./sends.ts). */
  sent: number;
  /** Some attempt that reached the wire left its fate unknown (./sends.ts, `fateUnknown`). */
  fateUnknown: boolean;
  /** Whether the attempt that failed last reached the wire (./sends.ts, `tellSends`). */
  lastReached: boolean;
}

/** Checks the input (throws ValidationError: nothing sent) and fixes the call's ids. */
export function planCall<T>(
  op: Operation<unknown, T>,
  input: CallInput,
  config: Config,
  auth: Authorizer,
): CallPlan<T> {
  const { path, body, callbackTemplate } = prepare(op, input, config, auth);
  const options = input.options ?? {};
  const referenceId = op.creates ? chooseReferenceId(options.referenceId) : undefined;
  return {
    op,
    input,
    options,
    path,
    url: config.baseUrl + path,
    body,
    referenceId,
    callbackUrl:
      op.callback && callbackTemplate !== undefined
        ? fillCallbackUrl(callbackTemplate, referenceId ?? '', config.callbackSecret)
        : undefined,
    credentials: op.auth === 'none' ? undefined : config.credentials(op.product),
    timeoutMs: options.timeoutMs ?? config.timeoutMs,
    signal: options.signal,
    headers: undefined,
    trace: undefined,
    sent: 0,
    fateUnknown: false,
    lastReached: false,
  };
}

/** What reading an answer of attempt `n` is told of the call. */
export function answerContext(plan: CallPlan<unknown>, n: number): AnswerContext {
  return {
    operation: plan.op.name,
    referenceId: plan.referenceId,
    attempt: n,
    callbackUrl: plan.callbackUrl,
    requestBody: plan.body, // read only to name a refused value (its currency...)
  };
}

/** The call's headers, Authorization aside: built on first use, the same for every attempt. */
export function headersOf(plan: CallPlan<unknown>, config: Config): Record<string, string> {
  const { op } = plan;
  plan.headers ??= callHeaders({
    op,
    subscriptionKey: plan.credentials?.subscriptionKey ?? config.subscriptionKey(op.product),
    targetEnvironment: config.targetEnvironment,
    institution: config.institution,
    referenceId: plan.referenceId,
    callbackUrl: plan.callbackUrl,
    contentType: plan.body === undefined ? undefined : contentTypeOf(op),
    own: plan.input.headers,
    extra: plan.options.headers,
  });
  return plan.headers;
}

/**
 * What the telemetry is told of a call: the path template with only `{referenceId}` filled,
 * so that no other parameter (an MSISDN) reaches a span.
 */
export function callStart(plan: CallPlan<unknown>, config: Config): CallStart {
  const { op } = plan;
  const referenceId = plan.input.params?.referenceId ?? plan.referenceId;
  const path = referenceId === undefined ? op.path : op.path.replace('{referenceId}', referenceId);
  return {
    operation: op.name,
    method: op.method,
    pathTemplate: op.path,
    url: config.baseUrl + path,
    referenceId,
    wait: plan.input.trace,
  };
}

/** What the hooks are told of attempt `n`. */
export function requestInfo(plan: CallPlan<unknown>, n: number): RequestInfo {
  const { op } = plan;
  return {
    operation: op.name,
    method: op.method,
    path: plan.path,
    referenceId: plan.referenceId,
    attempt: n,
  };
}
/**
 * The call's headers with this exchange's Authorization: set on the call's own headers
 * object (its exchanges run one at a time, and a replay replaces it), not copied.
 */
export function withAuthorization(headers: Record<string, string>, value: string | undefined) {
  if (value === undefined) delete headers.Authorization;
  else headers.Authorization = value;
  return headers;
}

/** An attempt's deadline, starting now. */
export function deadlineFor(plan: CallPlan<unknown>): number {
  return Date.now() + plan.timeoutMs;
}
