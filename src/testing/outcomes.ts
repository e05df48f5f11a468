import type { Party, Reason } from './types';

/** What a payee's party id makes of a transaction, decided at acceptance. */
export type PlannedOutcome =
  | { kind: 'normal' } // SUCCESSFUL, unless funds or the refunded transaction say otherwise
  | { kind: 'fail'; reason: Reason }
  | { kind: 'never' }; // stays PENDING until sim.settle()

export const REASONS = {
  INTERNAL_PROCESSING_ERROR: 'An internal error occurred while processing.',
  APPROVAL_REJECTED: 'The transaction was rejected.',
  EXPIRED: 'The transaction has expired.',
  NOT_ENOUGH_FUNDS: 'The payer does not have enough funds.',
  PAYEE_NOT_FOUND: 'The payee could not be found.',
  PAYER_NOT_FOUND: 'The payer could not be found.',
  NOT_ALLOWED: 'The account is not allowed to make this transaction.',
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'The payee is not allowed to receive this transaction.',
  PAYER_LIMIT_REACHED: "The payer's limit has been reached.",
  NOT_FOUND: 'The voucher was not found.',
  TRANSACTION_CANCELED: 'The transaction was cancelled.',
} as const;

export function reason(code: keyof typeof REASONS): Reason {
  return { code, message: REASONS[code] };
}

/**
 * Magic MSISDNs, modelled on the numbers of MTN's public sandbox (`46733123450`...), in
 * any country's format: the last six digits decide (`233244123451` in Ghana,
 * `256772123451` in Uganda and `46733123451` all decline). Any other party (and every
 * EMAIL or PARTY_CODE party) succeeds.
 */
export const MAGIC_SUFFIXES: Readonly<Record<string, PlannedOutcome>> = {
  '123450': { kind: 'fail', reason: reason('INTERNAL_PROCESSING_ERROR') },
  '123451': { kind: 'fail', reason: reason('APPROVAL_REJECTED') },
  '123452': { kind: 'fail', reason: reason('EXPIRED') },
  '123453': { kind: 'never' },
  '123454': { kind: 'never' },
  '123455': { kind: 'fail', reason: reason('NOT_ENOUGH_FUNDS') },
  '123456': { kind: 'fail', reason: reason('PAYEE_NOT_FOUND') },
  '123460': { kind: 'fail', reason: reason('NOT_ALLOWED') },
  '123461': { kind: 'fail', reason: reason('PAYER_LIMIT_REACHED') },
  '123462': { kind: 'fail', reason: reason('PAYEE_NOT_ALLOWED_TO_RECEIVE') },
};

/** Suffixes of accounts that are not active: not registered, blocked, or dormant. */
const INACTIVE_SUFFIXES: ReadonlySet<string> = new Set(['123456', '123460', '123462']);

/** The six digits that decide an MSISDN's magic outcome (a leading `+` is ignored). */
export const magicSuffix = (msisdn: string): string => msisdn.replace(/^\+/, '').slice(-6);

/** Whether the account holder of an MSISDN is active (registered and allowed). */
export const isActiveMsisdn = (msisdn: string): boolean =>
  !INACTIVE_SUFFIXES.has(magicSuffix(msisdn));

/** The magic outcome of an MSISDN. */
export function planForMsisdn(msisdn: string, role: 'payee' | 'payer' = 'payee'): PlannedOutcome {
  const plan = MAGIC_SUFFIXES[magicSuffix(msisdn)] ?? { kind: 'normal' };
  if (role !== 'payer' || plan.kind !== 'fail') return plan;
  // The numbers name the party that decides: a payer on collections.
  if (plan.reason.code === 'PAYEE_NOT_FOUND')
    return { kind: 'fail', reason: reason('PAYER_NOT_FOUND') };
  if (plan.reason.code === 'PAYEE_NOT_ALLOWED_TO_RECEIVE') {
    return { kind: 'fail', reason: reason('NOT_ALLOWED') };
  }
  return plan;
}

export function planOutcome(
  party: Party | undefined,
  role: 'payee' | 'payer' = 'payee',
): PlannedOutcome {
  if (party?.partyIdType !== 'MSISDN') return { kind: 'normal' };
  return planForMsisdn(party.partyId, role);
}
