import { badRequest, codeError, json } from '../http';
import type { Ledger, TxRecord } from '../ledger';
import { type PlannedOutcome, planForMsisdn, reason } from '../outcomes';
import type { Route, RouteContext } from '../router';
import type { Reason } from '../types';
import {
  IDENTIFICATION_TYPES,
  isEmail,
  isMsisdn,
  objectBody,
  optionalString,
  textField,
} from '../validation';
import { createTransaction, type ParsedCreate } from './transactions';

const C = 'collection' as const;

/** The spec names no format; this is what fits in a path segment without escaping. */
const VOUCHER_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
/** Every well-formed token is a voucher, except these (they do not exist). */
const UNKNOWN_PREFIX = 'unknown';
/** Vouchers carry no amount in any body; every voucher is worth this, in the account currency. */
const VOUCHER_VALUE = '100';

function voucherToken(ctx: RouteContext): string {
  const token = ctx.params.voucherToken ?? '';
  if (!VOUCHER_TOKEN.test(token)) {
    return badRequest('voucherToken must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -.');
  }
  return token;
}

const ISO_DATE = { test: (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v), rule: 'YYYY-MM-DD' };
const NUMERIC = { test: (v: string) => /^\d+$/.test(v), rule: 'a numeric string' };
const ID_TYPE = {
  test: (v: string) => IDENTIFICATION_TYPES.includes(v),
  rule: `one of ${IDENTIFICATION_TYPES.join(', ')}`,
};
const MSISDN = { test: isMsisdn, rule: 'an E.164 MSISDN' };
const EMAIL = { test: isEmail, rule: 'an e-mail address' };

/** Spec 2.6 receiver; at least one of msisdn, alias, email, username, externalId. */
function receiverField(body: Record<string, unknown>): { msisdn?: string } {
  const raw = body.receiver;
  if (raw === undefined) return badRequest('receiver is required.');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return badRequest('receiver must be an object.');
  }
  const receiver = raw as Record<string, unknown>;
  const field = (name: string, check?: typeof ISO_DATE) =>
    optionalString(receiver, name, check, `receiver.${name}`);
  for (const name of ['firstName', 'surname', 'languageCode']) field(name);
  field('birthDate', ISO_DATE);
  field('identificationType', ID_TYPE);
  field('identification', NUMERIC);
  const msisdn = field('msisdn', MSISDN);
  const ids = [
    msisdn,
    field('alias'),
    field('email', EMAIL),
    field('username'),
    field('externalId'),
  ];
  if (!ids.some((id) => id !== undefined && id !== '')) {
    return badRequest(
      'receiver needs at least one of msisdn, alias, email, username or externalId.',
    );
  }
  return msisdn !== undefined ? { msisdn } : {};
}

/** Voucher redeem body (spec 2.6). The outcome: unknown voucher, else receiver's MSISDN. */
function redeemBody(raw: unknown, ctx: RouteContext): ParsedCreate {
  const token = voucherToken(ctx);
  const body = objectBody(raw);
  const externalId = textField(body, 'externalId');
  const receiver = receiverField(body);
  optionalString(body, 'otp');
  optionalString(body, 'secret');
  let plan: PlannedOutcome = { kind: 'normal' };
  if (token.startsWith(UNKNOWN_PREFIX)) plan = { kind: 'fail', reason: reason('NOT_FOUND') };
  else if (receiver.msisdn !== undefined) plan = planForMsisdn(receiver.msisdn);
  return {
    amount: VOUCHER_VALUE,
    currency: ctx.options.currency,
    ...(externalId !== undefined ? { externalId } : {}),
    plan,
    extra: { voucherToken: token },
    render: voucherResult,
  };
}

/** The callback body: no payee or notes exist for a voucher. */
function voucherResult(tx: TxRecord): Record<string, unknown> {
  return {
    amount: tx.amount,
    currency: tx.currency,
    ...(tx.status === 'SUCCESSFUL' ? { financialTransactionId: tx.financialTransactionId } : {}),
    ...(tx.externalId !== undefined ? { externalId: tx.externalId } : {}),
    status: tx.status,
    ...(tx.reason ? { reason: { ...tx.reason } } : {}),
  };
}

/** A voucher can be redeemed once: a later redemption settles FAILED with NOT_ALLOWED. */
function notRedeemedYet(tx: TxRecord, ledger: Ledger): Reason | undefined {
  const token = tx.extra?.voucherToken;
  const redeemed = ledger
    .all()
    .some(
      (other) =>
        other !== tx &&
        other.operation === 'collection.redeemVoucher' &&
        other.status === 'SUCCESSFUL' &&
        other.extra?.voucherToken === token,
    );
  return redeemed
    ? { code: 'NOT_ALLOWED', message: 'The voucher has already been redeemed.' }
    : undefined;
}

/** FNV-1a: a stable number per token, for a deterministic fake MSISDN. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** GET /collection/v3_0/voucher/{voucherToken}/otp/cancel (spec 4.15). */
function voucherOtp(ctx: RouteContext): Response {
  const token = voucherToken(ctx);
  if (token.startsWith(UNKNOWN_PREFIX)) {
    return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
  }
  const msisdn = `46700${String(hash(token) % 1_000_000).padStart(6, '0')}`;
  return json(200, { type: 'CANCEL', msisdn });
}

/** Vouchers (spec 4.12, 4.15). A redemption credits the account; no status lookup exists. */
export const voucherRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/collection/v2_0/voucher/{voucherToken}/redeem',
    product: C,
    auth: 'basic-or-bearer',
    targetEnvironment: 'required',
    handle: createTransaction({
      operation: 'collection.redeemVoucher',
      callbackMethod: 'PUT',
      effect: 'credit',
      parse: redeemBody,
      check: notRedeemedYet,
    }),
  },
  {
    method: 'GET',
    path: '/collection/v3_0/voucher/{voucherToken}/otp/cancel',
    product: C,
    auth: 'basic-or-bearer',
    targetEnvironment: 'required',
    handle: voucherOtp,
  },
];
