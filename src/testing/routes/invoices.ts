import { v4 as uuidv4 } from 'uuid';
import { callerOf } from '../callback-hosts';
import { badRequest, codeError, empty } from '../http';
import type { TxRecord } from '../ledger';
import { type PlannedOutcome, planOutcome, reason } from '../outcomes';
import { renderResult } from '../results';
import type { Route, RouteContext } from '../router';
import { tagField } from '../tagging';
import type { Party } from '../types';
import {
  amountField,
  currencyField,
  isAnyUuid,
  noteField,
  objectBody,
  optionalTexts,
  partyField,
  secondsField,
  textField,
} from '../validation';
import { basicUserInfo } from './common';
import { ownTransaction, partnerField } from './partner-scope';
import {
  callbackUrlHeader,
  createTransaction,
  duplicate,
  lookupTransaction,
  type ParsedCreate,
  referenceIdHeader,
} from './transactions';

/**
 * Invoices (MTN's collection document): CREATED until the intended payer pays (SUCCESSFUL,
 * crediting the collection account) or `validityDuration` runs out (FAILED, EXPIRED); the
 * partner can cancel a CREATED one (FAILED, TRANSACTION_CANCELED).
 */

const C = 'collection' as const;

/** Validity when the body gives none: one day (the document names no default). */
const DEFAULT_VALIDITY_SECONDS = 86_400;

/**
 * What the intended payer does, by the magic MSISDNs of requests to pay: pays after
 * settleMs, or fails with the number's reason. `46733123452` (EXPIRED) never pays, so the
 * invoice expires at the end of its validity, as the forever-pending numbers' invoices do
 * unless `sim.decide()` or `sim.settle()` ends them first.
 */
function payerPlan(payer: Party): PlannedOutcome {
  const plan = planOutcome(payer, 'payer');
  if (plan.kind === 'fail' && plan.reason.code === 'EXPIRED') return { kind: 'never' };
  return plan;
}

/** CreateInvoice body: amount, currency, intendedPayer required; the rest optional. */
function invoiceBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  const amount = amountField(body);
  const currency = currencyField(body, ctx.options.currency);
  const validity = secondsField(body, 'validityDuration') ?? DEFAULT_VALIDITY_SECONDS;
  const payer = partyField(body, 'intendedPayer');
  const payee = body.payee === undefined ? undefined : partyField(body, 'payee');
  const externalId = textField(body, 'externalId');
  const description = noteField(body, 'description');
  return {
    amount,
    currency,
    payer,
    ...(payee ? { payee } : {}),
    ...(externalId !== undefined ? { externalId } : {}),
    plan: payerPlan(payer),
    deadline: { afterMs: validity * 1000, reason: reason('EXPIRED') },
    extra: {
      invoiceId: uuidv4(),
      validityDuration: String(validity),
      ...(description !== undefined ? { description } : {}),
    },
    render: invoiceResult,
  };
}

/** InvoiceResult. A waiting invoice is CREATED; a failure is under `errorReason`. */
function invoiceResult(tx: TxRecord): Record<string, unknown> {
  const validity = Number(tx.extra?.validityDuration ?? DEFAULT_VALIDITY_SECONDS);
  const payee =
    tx.payee?.partyIdType === 'MSISDN' ? basicUserInfo(tx.payee.partyId.replace(/^\+/, '')) : {};
  return {
    referenceId: tx.referenceId,
    ...(tx.externalId !== undefined ? { externalId: tx.externalId } : {}),
    amount: tx.amount,
    currency: tx.currency,
    status: tx.status === 'PENDING' ? 'CREATED' : tx.status,
    // What the payer quotes to pay it by another channel.
    paymentReference: tx.financialTransactionId,
    invoiceId: tx.extra?.invoiceId,
    expiryDateTime: new Date(tx.createdAt + validity * 1000).toISOString(),
    ...(payee.given_name !== undefined ? { payeeFirstName: payee.given_name } : {}),
    ...(payee.family_name !== undefined ? { payeeLastName: payee.family_name } : {}),
    ...(tx.reason ? { errorReason: { ...tx.reason } } : {}),
    ...(tx.payer ? { intendedPayer: { ...tx.payer } } : {}),
    ...(tx.extra?.description !== undefined ? { description: tx.extra.description } : {}),
  };
}

/** An empty body counts as `{}`: the document's body holds only an optional externalId. */
function cancelBody(ctx: RouteContext): { externalId?: string } {
  if (ctx.text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = JSON.parse(ctx.text);
  } catch {
    return badRequest('The body is not valid JSON.');
  }
  const { externalId } = optionalTexts(objectBody(raw));
  return externalId !== undefined ? { externalId } : {};
}

/**
 * DELETE /collection/v2_0/invoice/{referenceId}, with its own X-Reference-Id: checks as a
 * creating call (400, then 409 for a used X-Reference-Id), then 404 for an unknown invoice
 * and 400 NOT_ALLOWED for one no longer CREATED; 200 cancels it. The cancellation is stored
 * as its own operation (final at once), whose PUT callback carries the invoice's result.
 */
function cancelInvoice(ctx: RouteContext): Response {
  const invoiceId = ctx.params.referenceId ?? '';
  if (!isAnyUuid(invoiceId)) return badRequest('The reference id must be a UUID.');
  const referenceId = referenceIdHeader(ctx);
  const callbackUrl = callbackUrlHeader(ctx);
  const { externalId } = cancelBody(ctx);
  if (ctx.ledger.has(referenceId)) return duplicate();
  const invoice = ownTransaction(ctx, invoiceId);
  if (invoice?.operation !== 'collection.createInvoice') {
    return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
  }
  if (invoice.status !== 'PENDING') {
    const shown = invoice.status;
    return codeError(
      400,
      'NOT_ALLOWED',
      `The invoice is ${shown}; only a CREATED one can be cancelled.`,
    );
  }
  ctx.ledger.force(invoice.referenceId, 'FAILED', reason('TRANSACTION_CANCELED'));
  ctx.ledger.add(
    {
      referenceId,
      operation: 'collection.cancelInvoice',
      product: C,
      body: externalId !== undefined ? { externalId } : {},
      currency: invoice.currency,
      ...(externalId !== undefined ? { externalId } : {}),
      callbackUrl,
      callbackMethod: 'PUT',
      createdBy: callerOf(ctx),
      ...partnerField(ctx),
      ...tagField(ctx.headers),
      plan: { kind: 'never' },
      effect: 'none',
      extra: { invoiceReferenceId: invoice.referenceId },
      render: () => renderResult(invoice),
    },
    ctx.now,
  );
  ctx.ledger.force(referenceId, 'SUCCESSFUL');
  return empty(200);
}

export const invoiceRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collection/v2_0/invoice',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'collection.createInvoice',
      callbackMethod: 'PUT',
      effect: 'credit',
      parse: invoiceBody,
    }),
  },
  {
    method: 'GET',
    path: '/collection/v2_0/invoice/{referenceId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction(['collection.createInvoice']),
  },
  {
    method: 'DELETE',
    path: '/collection/v2_0/invoice/{referenceId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: cancelInvoice,
  },
];
