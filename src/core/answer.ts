import { parseWith } from '../schemas/validate';
import type { CallResult } from './call';
import type { Config } from './config';
import { createApiError, createUnexpectedResponseError, readErrorFields } from './error-factory';
import type { Answer } from './http';
import { duplicateReferenceId, type Operation } from './operation';
import { hintRetry } from './retry';
import { parseRetryAfter } from './time';

export interface AnswerContext {
  operation: string;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  attempt: number;
  /** The encoded body sent, read only to name a refused value (e.g. its currency). */
  requestBody?: string | undefined;
}

/**
 * What a complete answer means for the call: its parsed result, an earlier attempt that
 * landed (the operation's "landed" answer on a retry), or a typed error that tells the
 * retry loop about Retry-After and about answers never worth repeating.
 */
export function readAnswer<T>(
  op: Operation<unknown, T>,
  answer: Answer,
  context: AnswerContext,
  config: Config,
): CallResult<T> {
  const { status, headers } = answer;
  const { referenceId, callbackUrl } = context;
  if (status >= 200 && status < 300) {
    const data = parseResult(op, answer, context, config);
    return { data, status, headers, referenceId, callbackUrl, landedEarlier: false };
  }
  const body = config.scrubber.scrubValue(answer.body);
  const landed = op.landed ?? (op.creates ? duplicateReferenceId : undefined);
  const landedAnswer = landed?.({ status, code: readErrorFields(body).code }) === true;
  if (landedAnswer && context.attempt > 1) {
    config.log('info', `${op.name}: an earlier attempt landed (${status} on retry)`, {
      operation: op.name,
      referenceId,
    });
    const data = undefined as T;
    return { data, status, headers, referenceId, callbackUrl, landedEarlier: true };
  }
  const error = createApiError({
    status,
    body,
    headers,
    operation: op.name,
    referenceId,
    scrubber: config.scrubber,
    sent: {
      targetEnvironment: config.targetEnvironment,
      requestBody: context.requestBody,
      callbackUrl,
    },
  });
  throw hintRetry(error, {
    retryAfterMs: parseRetryAfter(headers.get('retry-after')),
    final: landedAnswer,
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
