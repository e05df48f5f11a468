import { consentPaymentBody, refundBody, transferBody } from '../../schemas/transactions';
import { creating, lookup } from '../endpoints';
import { accountOperations, basicUserInfoById } from './account';

const product = 'disbursement';
const consent = { auth: 'consent' } as const;

const getTransfer = lookup(product, 'getTransfer', 'GET /disbursement/v1_0/transfer/{referenceId}');
const getDeposit = lookup(product, 'getDeposit', 'GET /disbursement/v1_0/deposit/{referenceId}');
const getRefund = lookup(product, 'getRefund', 'GET /disbursement/v1_0/refund/{referenceId}');
const getMerchantPayment = lookup(
  product,
  'getMerchantPayment',
  'GET /disbursementwithnewcapabilities/oauth2/v1_0/merchantpayment/{referenceId}',
); // 4.1

/** Disbursement's operations: the specification's and the provider documents'. */
export const disbursementOperations = {
  ...accountOperations(product), // 4.18, 4.19
  getBasicUserInfoById: basicUserInfoById(product),
  getTransfer,
  getDeposit,
  getRefund,
  getMerchantPayment,
  transfer: creating(product, 'transfer', 'POST /disbursement/v1_0/transfer', transferBody, {
    lookup: getTransfer,
    callback: 'PUT',
  }),
  deposit: creating(product, 'deposit', 'POST /disbursement/v1_0/deposit', transferBody, {
    lookup: getDeposit,
    callback: 'POST',
  }), // 4.5
  refund: creating(product, 'refund', 'POST /disbursement/v1_0/refund', refundBody, {
    lookup: getRefund,
    callback: 'POST',
  }), // 4.4
  depositV2: creating(product, 'depositV2', 'POST /disbursement/v2_0/deposit', transferBody, {
    lookup: getDeposit,
    callback: 'PUT',
  }),
  refundV2: creating(product, 'refundV2', 'POST /disbursement/v2_0/refund', refundBody, {
    lookup: getRefund,
    callback: 'PUT',
  }),
  transferWithConsent: creating(
    product,
    'transferWithConsent',
    'POST /disbursement/oauth2/v1_0/transfer',
    consentPaymentBody,
    { lookup: getTransfer, callback: 'PUT' },
    consent,
  ), // 4.3
  merchantPaymentWithConsent: creating(
    product,
    'merchantPaymentWithConsent',
    'POST /disbursement/oauth2/v1_0/merchantpayment',
    consentPaymentBody,
    { lookup: getMerchantPayment, callback: 'PUT' },
    consent,
  ), // 4.13
};
