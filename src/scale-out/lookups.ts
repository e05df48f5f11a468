import type { Operation } from '../core/operation';
import { collectionOperations as collection } from '../products/collection';
import { disbursementOperations as disbursement } from '../products/disbursement';
import { remittanceOperations as remittance } from '../products/remittance';
import type { StatusLike } from '../schemas/common';

type Lookup = Operation<never, StatusLike>;

/**
 * The status lookup of each creating operation, by its name as the journal records it:
 * what lets any instance, or a restarted one, confirm and await an operation it did
 * not create. Operations missing here have no lookup in the specification (voucher
 * redeem, standard-style disbursement): their outcome comes by callback only.
 */
const LOOKUP_OF: Readonly<Record<string, Lookup>> = {
  'disbursement.transfer': disbursement.getTransfer,
  'disbursement.deposit': disbursement.getDeposit,
  'disbursement.refund': disbursement.getRefund,
  'disbursement.transferWithConsent': disbursement.getTransfer,
  'disbursement.merchantPaymentWithConsent': disbursement.getMerchantPayment,
  'collection.requestToPay': collection.getRequestToPay,
  'collection.requestToWithdraw': collection.getRequestToWithdraw,
  'remittance.transfer': remittance.getTransfer,
  'remittance.cashTransfer': remittance.getCashTransfer,
};

export function lookupOf(operation: string): Lookup | undefined {
  return Object.hasOwn(LOOKUP_OF, operation) ? LOOKUP_OF[operation] : undefined;
}
