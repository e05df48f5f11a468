import { parseWith } from '../schemas/validate';
import type { CallResult } from './call';
import type { Config } from './config';
import { createApiError, createUnexpectedResponseError, readErrorFields } from './error-factory';
import { duplicateReferenceId, type Operation } from './operation';
import type { Answer } from './port';
import type { ResponseHeaders } from './raw-headers';

export interface AnswerContext {
  operation: string;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  attempt: number;
  /** The encoded body sent, read only to name a refused value (e.g. its currency). */
  requestBody?: string | undefined;
}

/**
 * The response headers that name the request on the provider's side, first found wins
 * (all of them kept on errors too, see KEPT_ERROR_HEADERS).
 */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'apim-request-id'] as const;

/** The provider's id for this request, quoted in a support ticket. */
export function requestIdOf(headers: ResponseHeaders): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

/** The answer that proves an earlier attempt of this call landed (never worth a retry). */
export function landedAnswer(
  op: Pick<Operation<unknown, unknown>, 'landed' | 'creates'>,
  fields: { status: number; code: string | undefined },
): boolean {
  const landed = op.landed ?? (op.creates ? duplicateReferenceId : undefined);
  return landed?.(fields) === true;
}

/**
 * What a complete answer means for the call: its parsed result, an earlier attempt that
 * landed (the operation's "landed" answer on a retry: `landedEarlier`), or a typed error
 * (carrying the answer's Retry-After as `retryAfterMs`).
 */
export function readAnswer<T>(
  op: Operation<unknown, T>,
  answer: Answer,
  context: AnswerContext,
  config: Config,
): CallResult<T> {
  const { status, headers } = answer;
  const { referenceId, callbackUrl } = context;
  const id = requestIdOf(headers);
  const requestId = id === undefined ? undefined : config.scrubber.scrub(id);
  if (status >= 200 && status < 300) {
    const data = parseResult(op, answer, context, config);
    return { data, status, headers, referenceId, callbackUrl, requestId, landedEarlier: false };
  }
  const body = config.scrubber.scrubValue(answer.body);
  if (context.attempt > 1 && landedAnswer(op, { status, code: readErrorFields(body).code })) {
    config.log('info', `${op.name}: an earlier attempt landed (${status} on retry)`, {
      operation: op.name,
      referenceId,
    });
    const data = undefined as T;
    return { data, status, headers, referenceId, callbackUrl, requestId, landedEarlier: true };
  }
  throw createApiError({
    status,
    body,
    headers,
    operation: op.name,
    referenceId,
    scrubber: config.scrubber,
    sent: {
      targetEnvironment: config.targetEnvironment,
      baseUrl: config.baseUrl,
      requestBody: context.requestBody,
      callbackUrl,
    },
  });
}

function parseResult<T>(
  op: Operation<unknown, T>,
  answer: Answer,
  context: AnswerContext,
  config: Config,
): T {
  if (!op.result) return undefined as T;
  const parsed = parseWith(op.result, answer.body);
  if (parsed.ok) return parsed.value;
  throw createUnexpectedResponseError({
    operation: context.operation,
    referenceId: context.referenceId,
    status: answer.status,
    body: answer.body,
    issues: parsed.issues,
    scrubber: config.scrubber,
  });
}
