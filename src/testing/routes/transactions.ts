import { callerOf, enforcedHostRefusal } from '../callback-hosts';
import { badRequest, codeError, empty, json, reject } from '../http';
import type { Deadline, Ledger, TxFields, TxRecord } from '../ledger';
import { type PlannedOutcome, planOutcome } from '../outcomes';
import { renderResult } from '../results';
import type { RouteContext, RouteHandler } from '../router';
import { tagField } from '../tagging';
import type { Operation, Reason } from '../types';
import { isAnyUuid, isUuidV4 } from '../validation';
import { ownTransaction, partnerField } from './partner-scope';

/** What a creating route reads from the request. */
export interface ParsedCreate extends TxFields {
  readonly extra?: Readonly<Record<string, string>>;
  /** Overrides the magic-id outcome (e.g. an unknown voucher). */
  readonly plan?: PlannedOutcome;
  /** The lookup and callback body, when it is not the TransferResult shape. */
  readonly render?: (tx: TxRecord) => Record<string, unknown>;
  /** Ends it FAILED when still PENDING this long after acceptance (an invoice's validity). */
  readonly deadline?: Deadline;
}

export interface CreateSpec {
  readonly operation: Operation;
  /** Callback method (spec 6.2). */
  readonly callbackMethod: 'POST' | 'PUT';
  readonly effect: TxRecord['effect'];
  /** Validates the body (throwing a Rejection) and returns the stored fields. */
  readonly parse: (body: unknown, ctx: RouteContext) => ParsedCreate;
  /** Whose magic party id decides the outcome (default the payee). */
  readonly outcomeBy?: 'payee' | 'payer' | 'none';
  /** Checked when the transaction becomes final; a reason makes it FAILED. */
  readonly check?: (tx: TxRecord, ledger: Ledger) => Reason | undefined;
}

/** Parses the JSON body; 400 when it is not JSON. */
export function jsonBody(ctx: RouteContext): unknown {
  if (ctx.text.trim() === '') return badRequest('A JSON body is required.');
  try {
    return JSON.parse(ctx.text);
  } catch {
    return badRequest('The body is not valid JSON.');
  }
}

export function referenceIdHeader(ctx: RouteContext): string {
  const value = ctx.headers.get('x-reference-id');
  if (value === null || value === '') return badRequest('X-Reference-Id header is required.');
  if (!isUuidV4(value)) return badRequest('X-Reference-Id must be a UUID version 4.');
  return value;
}

/** Whether the value is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url?.protocol === 'http:' || url?.protocol === 'https:';
}

/**
 * X-Callback-Url, if given: an http(s) URL, and with `enforceCallbackHost` on the caller's
 * providerCallbackHost; 400 `INVALID_CALLBACK_URL_HOST` otherwise.
 */
export function callbackUrlHeader(ctx: RouteContext): string | undefined {
  const value = ctx.headers.get('x-callback-url');
  if (value === null || value === '') return undefined;
  if (!isHttpUrl(value)) {
    return reject(400, 'INVALID_CALLBACK_URL_HOST', 'X-Callback-Url must be an http(s) URL.');
  }
  const refusal = enforcedHostRefusal(ctx, value);
  if (refusal !== undefined) return reject(400, 'INVALID_CALLBACK_URL_HOST', refusal);
  return value;
}

/**
 * A creating call (202): headers, then body, then the duplicate check; nothing is
 * stored unless all pass.
 */
export function createTransaction(spec: CreateSpec): RouteHandler {
  return (ctx) => {
    const referenceId = referenceIdHeader(ctx);
    const callbackUrl = callbackUrlHeader(ctx);
    const body = jsonBody(ctx);
    const { extra, plan, render, deadline, ...fields } = spec.parse(body, ctx);
    if (ctx.ledger.has(referenceId)) return duplicate();
    ctx.ledger.add(
      {
        ...fields,
        referenceId,
        operation: spec.operation,
        product: ctx.product,
        body,
        callbackUrl,
        callbackMethod: spec.callbackMethod,
        createdBy: callerOf(ctx),
        ...partnerField(ctx),
        ...tagField(ctx.headers),
        plan: plan ?? planFor(spec.outcomeBy ?? 'payee', fields),
        effect: spec.effect,
        ...(spec.check ? { check: spec.check } : {}),
        ...(extra ? { extra } : {}),
        ...(render ? { render } : {}),
        ...(deadline ? { deadline } : {}),
      },
      ctx.now,
    );
    return empty(202);
  };
}

/** 409 for a reference id already used by any operation. */
export function duplicate(): Response {
  return codeError(
    409,
    'RESOURCE_ALREADY_EXIST',
    'Duplicated reference id. Creation of resource failed.',
  );
}

function planFor(by: 'payee' | 'payer' | 'none', fields: TxFields): PlannedOutcome {
  if (by === 'none') return { kind: 'normal' };
  return by === 'payer' ? planOutcome(fields.payer, 'payer') : planOutcome(fields.payee);
}

/**
 * A status lookup: 200 with the result (also when FAILED), 404 RESOURCE_NOT_FOUND for an
 * unknown id or one of another operation, 400 for an id that is not a UUID.
 */
export function lookupTransaction(
  operations: readonly Operation[],
  options: { withReferenceId?: boolean } = {},
): RouteHandler {
  return (ctx) => {
    const referenceId = ctx.params.referenceId ?? '';
    if (!isAnyUuid(referenceId)) return badRequest('The reference id must be a UUID.');
    const tx = ownTransaction(ctx, referenceId);
    if (!tx || !operations.includes(tx.operation)) {
      return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    }
    return json(200, renderResult(tx, options.withReferenceId ?? false));
  };
}
