import type {
  ArrearsPolicy,
  PlanInterval,
  SubscriptionPlan,
} from '../contracts/subscription-store';
import { ValidationError, type ValidationIssue } from '../errors';
import { amount, currency, type Party, party } from '../schemas/common';
import { validateInput } from '../schemas/validate';
import { delayMs } from './period';

/** What `subs.plan()` takes (docs/subscriptions.md). */
export interface PlanInput {
  id: string;
  /** A positive decimal string, e.g. `'50'`. */
  amount: string;
  currency: string;
  every: PlanInterval;
  /** Delays before each retry of a charge that FAILED for a reason worth retrying. Default none. */
  retry?: readonly string[] | undefined;
  /**
   * Retries spent: an invoice the payer can pay. `true` takes the payee from
   * `new Subscriptions(momo, { invoicePayee })`; invoices stay payable 7 days unless told.
   */
  invoiceFallback?: boolean | { payee?: Party; validityDays?: number } | undefined;
  payerMessage?: string | undefined;
  /**
   * The arrears policy: how many held periods a late approval charges at once (`catchUp`,
   * default `'all'`), and what an unpaid invoice does (`unpaid`: `'arrears'`, the default,
   * the period left unpaid and billing going on; or `'cancel'`).
   */
  arrears?: ArrearsPolicy | undefined;
}

/** What `subs.subscribe()` takes. */
export interface SubscribeInput {
  /** Your id for it (a member, a policy): one subscription per key. At most 200 characters. */
  key: string;
  /** The plan's id. */
  plan: string;
  payer: Party;
  /** When period 0 starts (its charge is due then). */
  startAt: Date | number;
  /** No period starts at or after this: the subscription is then ENDED. */
  endAt?: Date | number | undefined;
  /** Each pre-approval's validity in days (default 365). */
  mandateDays?: number | undefined;
}

const fail = (issues: ValidationIssue[]): never => {
  throw new ValidationError(issues);
};

const isKey = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length > 0 &&
  value.length <= 200 &&
  !/\p{Cs}/u.test(value) && // no lone surrogate
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  !/[\u0000-\u001f\u007f-\u009f]/.test(value);

/** A plan checked; `invoicePayee` is the subscriptions' default payee of invoices. */
export function checkPlan(input: PlanInput, invoicePayee: Party | undefined): SubscriptionPlan {
  if (input === null || typeof input !== 'object')
    fail([{ path: 'plan', message: 'must be an object' }]);
  const issues: ValidationIssue[] = [];
  if (!isKey(input.id))
    issues.push({ path: 'id', message: 'must be a non-empty key of at most 200 characters' });
  if (!checkInterval(input.every)) {
    issues.push({
      path: 'every',
      message: "must be 'day', 'week', 'month' or { days: n } (n a whole number > 0)",
    });
  }
  const retry = input.retry ?? [];
  if (!Array.isArray(retry) || retry.some((d) => delayMs(d) === undefined)) {
    issues.push({ path: 'retry', message: "must be a list of delays such as '1d', '12h', '30m'" });
  }
  if (issues.length > 0) fail(issues);
  validateInput(amount, input.amount, 'amount', 'subscriptions.plan');
  validateInput(currency, input.currency, 'currency', 'subscriptions.plan');
  const fallback = input.invoiceFallback;
  let invoiceFallback: SubscriptionPlan['invoiceFallback'];
  if (fallback !== undefined && fallback !== false) {
    const given = typeof fallback === 'object' ? fallback : {};
    const payee = given.payee ?? invoicePayee;
    if (payee === undefined) {
      fail([
        {
          path: 'invoiceFallback.payee',
          message: 'is required (or new Subscriptions(momo, { invoicePayee }))',
        },
      ]);
    }
    validateInput(party, payee, 'invoiceFallback.payee', 'subscriptions.plan');
    const validityDays = given.validityDays ?? 7;
    if (!Number.isInteger(validityDays) || validityDays < 1) {
      fail([
        { path: 'invoiceFallback.validityDays', message: 'must be a whole number of days > 0' },
      ]);
    }
    invoiceFallback = { payee: payee as Party, validityDays };
  }
  const arrears = input.arrears;
  if (arrears !== undefined) {
    const { catchUp, unpaid } = arrears ?? {};
    const badCatchUp =
      catchUp !== undefined && catchUp !== 'all' && !(Number.isInteger(catchUp) && catchUp >= 1);
    if (badCatchUp)
      fail([{ path: 'arrears.catchUp', message: "must be 'all' or a whole number >= 1" }]);
    if (unpaid !== undefined && unpaid !== 'arrears' && unpaid !== 'cancel')
      fail([{ path: 'arrears.unpaid', message: "must be 'arrears' or 'cancel'" }]);
  }
  return {
    id: input.id,
    amount: input.amount,
    currency: input.currency,
    every: typeof input.every === 'object' ? { days: input.every.days } : input.every,
    retry: [...retry],
    ...(invoiceFallback ? { invoiceFallback } : {}),
    ...(input.payerMessage !== undefined ? { payerMessage: input.payerMessage } : {}),
    ...(arrears !== undefined ? { arrears: { ...arrears } } : {}),
  };
}

function checkInterval(every: unknown): every is PlanInterval {
  if (every === 'day' || every === 'week' || every === 'month') return true;
  if (every === null || typeof every !== 'object') return false;
  const days = (every as { days?: unknown }).days;
  return typeof days === 'number' && Number.isInteger(days) && days > 0;
}

/** Epoch ms of a Date or a number; undefined when neither. */
export function epochMs(value: unknown): number | undefined {
  const ms = value instanceof Date ? value.getTime() : value;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
}

/** `subscribe`'s input checked: its times as epoch ms. */
export function checkSubscribe(input: SubscribeInput): {
  key: string;
  plan: string;
  payer: Party;
  startAt: number;
  endAt: number | undefined;
  mandateDays: number;
} {
  if (input === null || typeof input !== 'object')
    fail([{ path: 'subscription', message: 'must be an object' }]);
  const issues: ValidationIssue[] = [];
  if (!isKey(input.key)) {
    issues.push({
      path: 'key',
      message: 'must be at most 200 characters of well-formed text, no control characters',
    });
  }
  if (typeof input.plan !== 'string' || input.plan === '')
    issues.push({ path: 'plan', message: 'must name a plan' });
  const startAt = epochMs(input.startAt);
  if (startAt === undefined)
    issues.push({ path: 'startAt', message: 'must be a Date or epoch milliseconds' });
  const endAt = input.endAt === undefined ? undefined : epochMs(input.endAt);
  if (
    input.endAt !== undefined &&
    (endAt === undefined || (startAt !== undefined && endAt <= startAt))
  ) {
    issues.push({ path: 'endAt', message: 'must be a Date after startAt' });
  }
  const mandateDays = input.mandateDays ?? 365;
  if (!Number.isInteger(mandateDays) || mandateDays < 8 || mandateDays > 3650) {
    issues.push({ path: 'mandateDays', message: 'must be a whole number of days from 8 to 3650' });
  }
  if (issues.length > 0) fail(issues);
  const payer = validateInput(party, input.payer, 'payer', 'subscriptions.subscribe');
  return {
    key: input.key,
    plan: input.plan,
    payer,
    startAt: startAt as number,
    endAt,
    mandateDays,
  };
}
