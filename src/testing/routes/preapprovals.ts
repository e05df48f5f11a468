import { v4 as uuidv4 } from 'uuid';
import { badRequest, codeError, empty, json } from '../http';
import { preApprovalView } from '../kinds';
import type { TxRecord } from '../ledger';
import { planOutcome } from '../outcomes';
import type { Route, RouteContext } from '../router';
import type { Party } from '../types';
import {
  isEmail,
  isMsisdn,
  noteField,
  objectBody,
  optionalString,
  partyField,
  secondsField,
} from '../validation';
import { createTransaction, lookupTransaction, type ParsedCreate } from './transactions';

/**
 * Pre-approvals (MTN's collection document): the payer approves, once, that the partner
 * may debit them later. PENDING until the payer decides (the payer's magic MSISDN, as for
 * a request to pay), then SUCCESSFUL (approved) or FAILED; an approved one is listed until
 * `validityTime` seconds after its approval, or until the partner cancels it.
 */

const C = 'collection' as const;

/** The API user behind the call: the payee of the pre-approvals it creates. */
function caller(ctx: RouteContext): string {
  return ctx.token?.kind === 'access' ? ctx.token.subject : ctx.options.apiUser.id;
}

/** PreApproval body: payer (required), payerCurrency, payerMessage, validityTime (seconds). */
function preApprovalBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const body = objectBody(raw);
  const payer = partyField(body, 'payer');
  const currency = optionalString(body, 'payerCurrency', {
    test: (value) => /^[A-Z]{3}$/.test(value),
    rule: 'an ISO 4217 code of three capitals',
  });
  const payerMessage = noteField(body, 'payerMessage');
  const validityTime = secondsField(body, 'validityTime');
  return {
    currency: currency ?? ctx.options.currency,
    payer,
    ...(payerMessage !== undefined ? { payerMessage } : {}),
    extra: {
      preApprovalId: uuidv4(),
      payeeUser: caller(ctx),
      ...(currency !== undefined ? { payerCurrency: currency } : {}),
      ...(validityTime !== undefined ? { validityTime: String(validityTime) } : {}),
    },
    render: (tx) => preApprovalResult(tx, ctx.clock.now()),
  };
}

/** PreApprovalResult: expirationDateTime (epoch ms, the schema's integer) once approved. */
function preApprovalResult(tx: TxRecord, now: number): Record<string, unknown> {
  const view = preApprovalView(tx, now);
  return {
    ...(tx.payer ? { payer: { ...tx.payer } } : {}),
    ...(tx.extra?.payerCurrency !== undefined ? { payerCurrency: tx.extra.payerCurrency } : {}),
    ...(tx.payerMessage !== undefined ? { payerMessage: tx.payerMessage } : {}),
    status: tx.status,
    ...(view?.expiresAt !== undefined ? { expirationDateTime: view.expiresAt } : {}),
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
  };
}

/** The lower-case id types of GetApprovedPreApprovals, and the party each one names. */
const HOLDER_TYPES: Readonly<Record<string, Party['partyIdType'] | undefined>> = {
  msisdn: 'MSISDN',
  email: 'EMAIL',
  id: 'PARTY_CODE',
  alias: undefined, // no party of a pre-approval is an alias
};

function holderParty(ctx: RouteContext): {
  partyIdType: Party['partyIdType'] | undefined;
  id: string;
} {
  const idType = ctx.params.accountHolderIdType ?? '';
  const id = ctx.params.accountHolderId ?? '';
  if (!(idType in HOLDER_TYPES)) {
    return badRequest('accountHolderIdType must be msisdn, email, id or alias.');
  }
  if (idType === 'msisdn' && !isMsisdn(id)) return badRequest('The MSISDN must be in E.164 form.');
  if (idType === 'email' && !isEmail(id)) return badRequest('The e-mail address is not valid.');
  if (id.trim() === '') return badRequest('accountHolderId is required.');
  return { partyIdType: HOLDER_TYPES[idType], id };
}

function samePartyId(party: Party, partyIdType: string | undefined, id: string): boolean {
  if (party.partyIdType !== partyIdType) return false;
  if (partyIdType === 'MSISDN') return party.partyId.replace(/^\+/, '') === id.replace(/^\+/, '');
  return party.partyId.toLowerCase() === id.toLowerCase();
}

/** An ISO 8601 instant, the form PreApprovalDetails' times are validated with. */
const iso = (ms: number) => new Date(ms).toISOString();

/** FRI (Financial Resource Identifier) of a party, as MTN writes them: `FRI:{id}/{TYPE}`. */
const fri = (id: string, type: string) => `FRI:${id}/${type}`;

function details(tx: TxRecord, expiresAt: number | undefined, preApprovalId: string) {
  const payer = tx.payer ?? { partyIdType: 'MSISDN', partyId: '' };
  return {
    preApprovalId,
    toFri: fri(tx.extra?.payeeUser ?? '', 'USER'),
    fromFri: fri(payer.partyId, payer.partyIdType),
    fromCurrency: tx.currency,
    createdTime: iso(tx.createdAt),
    approvedTime: iso(tx.finalizedAt ?? tx.createdAt),
    ...(expiresAt !== undefined ? { expiryTime: iso(expiresAt) } : {}),
    status: 'APPROVED',
    message: tx.payerMessage ?? '',
  };
}

/**
 * A request to pay from a payer who approved a pre-approval of the same partner (API
 * user), still active (approved, unexpired, uncancelled), is not put to the payer: a
 * number whose prompt is never answered (`123453`, `123454`) settles SUCCESSFUL after
 * settleMs; the other numbers' outcomes (funds, limits, unknown payer) stand
 * (docs/assumptions.md SB1). Whatever its outcome, the request is recorded as made under
 * that pre-approval (`underPreApproval`: the one approved last, when a renewal and the
 * mandate it renews are both active; docs/assumptions.md SP1), for the payer's page.
 */
export function withoutPromptUnderMandate(parsed: ParsedCreate, ctx: RouteContext): ParsedCreate {
  const payer = parsed.payer;
  if (!payer) return parsed;
  const payee = caller(ctx);
  let mandate: { id: string; approvedAt: number } | undefined;
  for (const tx of ctx.ledger.preApprovalsOf(payer)) {
    if (tx.extra?.payeeUser !== payee) continue;
    if (!tx.payer || !samePartyId(tx.payer, payer.partyIdType, payer.partyId)) continue;
    const view = preApprovalView(tx, ctx.now);
    const approvedAt = tx.finalizedAt ?? tx.createdAt;
    if (view?.state === 'APPROVED' && (!mandate || approvedAt >= mandate.approvedAt)) {
      mandate = { id: view.preApprovalId, approvedAt };
    }
  }
  if (!mandate) return parsed;
  const linked = { ...parsed, extra: { ...parsed.extra, underPreApproval: mandate.id } };
  return planOutcome(payer, 'payer').kind === 'never'
    ? { ...linked, plan: { kind: 'normal' } }
    : linked;
}

/**
 * GET /collection/v1_0/preapprovals/{idType}/{id}: the caller's approved ones, or []. Read
 * from the ledger's index of pre-approvals by payer: never a scan of every transaction
 * (minutes for a subscriptions run of a year against one simulator).
 */
function approvedPreApprovals(ctx: RouteContext): Response {
  const { partyIdType, id } = holderParty(ctx);
  if (partyIdType === undefined) return json(200, []); // an alias names no payer here
  const payee = caller(ctx);
  const listed = ctx.ledger
    .preApprovalsOf({ partyIdType, partyId: id })
    .filter((tx) => tx.extra?.payeeUser === payee && tx.payer)
    .filter((tx) => samePartyId(tx.payer as Party, partyIdType, id))
    .flatMap((tx) => {
      const view = preApprovalView(tx, ctx.now);
      return view?.state === 'APPROVED' ? [details(tx, view.expiresAt, view.preApprovalId)] : [];
    });
  return json(200, listed);
}

/**
 * DELETE /collection/v1_0/preapproval/{preApprovalId}: 200 for an APPROVED one whose payee
 * is the caller; 404 RESOURCE_NOT_FOUND for an id that is not one of the caller's approved
 * pre-approvals; 400 NOT_ALLOWED for one already CANCELLED or EXPIRED.
 */
function cancelPreApproval(ctx: RouteContext): Response {
  const wanted = (ctx.params.preApprovalId ?? '').toLowerCase();
  const payee = caller(ctx);
  const tx = ctx.ledger.preApprovalById(wanted);
  const view = tx ? preApprovalView(tx, ctx.now) : undefined;
  if (!tx || !view || tx.extra?.payeeUser !== payee) {
    return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
  }
  if (view.state !== 'APPROVED') {
    return codeError(
      400,
      'NOT_ALLOWED',
      `The pre-approval is ${view.state}; only an APPROVED one can be cancelled.`,
    );
  }
  ctx.ledger.cancel(tx, ctx.now);
  return empty(200);
}

export const preApprovalRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collection/v2_0/preapproval',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'collection.preApproval',
      callbackMethod: 'PUT',
      effect: 'none',
      outcomeBy: 'payer',
      parse: preApprovalBody,
    }),
  },
  {
    method: 'GET',
    path: '/collection/v2_0/preapproval/{referenceId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: lookupTransaction(['collection.preApproval']),
  },
  {
    method: 'GET',
    path: '/collection/v1_0/preapprovals/{accountHolderIdType}/{accountHolderId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: approvedPreApprovals,
  },
  {
    method: 'DELETE',
    path: '/collection/v1_0/preapproval/{preApprovalId}',
    product: C,
    auth: 'bearer',
    targetEnvironment: 'required',
    handle: cancelPreApproval,
  },
];
