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
  NOT_FOUND: 'The voucher was not found.',
  TRANSACTION_CANCELED: 'The transaction was cancelled.',
} as const;

export function reason(code: keyof typeof REASONS): Reason {
  return { code, message: REASONS[code] };
}

/**
 * Magic MSISDNs, modelled on the numbers of MTN's public sandbox. Any other party
 * (and every EMAIL or PARTY_CODE party) succeeds.
 */
export const MAGIC_PARTY_IDS: Readonly<Record<string, PlannedOutcome>> = {
  '46733123450': { kind: 'fail', reason: reason('INTERNAL_PROCESSING_ERROR') },
  '46733123451': { kind: 'fail', reason: reason('APPROVAL_REJECTED') },
  '46733123452': { kind: 'fail', reason: reason('EXPIRED') },
  '46733123453': { kind: 'never' },
  '46733123454': { kind: 'never' },
  '46733123455': { kind: 'fail', reason: reason('NOT_ENOUGH_FUNDS') },
  '46733123456': { kind: 'fail', reason: reason('PAYEE_NOT_FOUND') },
};

/** The magic outcome of an MSISDN (a leading `+` is ignored). */
export function planForMsisdn(msisdn: string, role: 'payee' | 'payer' = 'payee'): PlannedOutcome {
  const plan = MAGIC_PARTY_IDS[msisdn.replace(/^\+/, '')] ?? { kind: 'normal' };
  // The not-found number names the party that decides: a payer on collections.
  if (role === 'payer' && plan.kind === 'fail' && plan.reason.code === 'PAYEE_NOT_FOUND') {
    return { kind: 'fail', reason: reason('PAYER_NOT_FOUND') };
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
