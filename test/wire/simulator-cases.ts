import type { MomoClient } from 'momo-partner-sdk';
import { expect } from 'vitest';
import { CALLBACK_TEMPLATE, UUID_V4 } from '../support/wire';

// The creating operations the simulator tests send: what each sends, how it succeeds and
// fails, where it is looked up and how its callback comes.
export const party = (partyId: string) => ({ partyIdType: 'MSISDN', partyId }) as const;
export const OK = '46733123999';
export const PENDING = '46733123453'; // waits for sim.decide()

export type Accepted = {
  referenceId: string;
  wait(): Promise<{ status: string; reason?: unknown }>;
};
export interface CreatingCase {
  name: string;
  path: string;
  /** The status lookup of a reference id. */
  lookup(referenceId: string): string;
  callback: 'PUT' | 'POST';
  /** The body with a payer/payee that succeeds, and one that fails, with its reason. */
  body(client: MomoClient): Promise<object>;
  failing(client: MomoClient): Promise<object>;
  reason: string;
  send(client: MomoClient, body: object): Promise<Accepted>;
  /** The operation's own `get*` (the FAILED result, read once more). */
  get(client: MomoClient, referenceId: string): Promise<{ status: string }>;
  success: object;
}

export const withCallback = { callbackUrl: CALLBACK_TEMPLATE };
const money = { amount: '25', currency: 'EUR' };
export const preApproval = (payer: string) => ({
  payer: party(payer),
  payerCurrency: 'EUR',
  payerMessage: 'Monthly plan',
  validityTime: 3600,
});
export const invoice = (payer: string) => ({
  externalId: 'inv-1',
  ...money,
  validityDuration: '3600',
  intendedPayer: party(payer),
  payee: party('46733123998'),
  description: 'Invoice 1',
});
const payment = (customer: string) => ({
  externalTransactionId: 'pay-1',
  money,
  customerReference: customer,
  serviceProviderUserName: 'Electricity Inc',
});
const withdraw = (payer: string) => ({
  ...money,
  externalId: 'w-1',
  payer: party(payer),
  payerMessage: 'Cash out',
  payeeNote: 'Thanks',
});
const deposit = (payee: string) => ({ ...money, externalId: 'd-1', payee: party(payee) });
/** A refund of a deposit that succeeded first (the refund rules need one). */
async function refundOfDeposit(client: MomoClient) {
  const done = await client.disbursement.deposit(deposit(OK)).wait();
  return { amount: '5', currency: 'EUR', externalId: 'r-1', referenceIdToRefund: done.referenceId };
}

export const CREATING: CreatingCase[] = [
  {
    name: 'collection.preApproval',
    path: '/collection/v2_0/preapproval',
    lookup: (id) => `/collection/v2_0/preapproval/${id}`,
    callback: 'PUT',
    body: async () => preApproval(OK),
    failing: async () => preApproval('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.preApproval(b as never, withCallback),
    get: (c, id) => c.collection.getPreApproval(id),
    success: { payer: party(OK), payerCurrency: 'EUR', expirationDateTime: expect.any(Number) },
  },
  {
    name: 'collection.createInvoice',
    path: '/collection/v2_0/invoice',
    lookup: (id) => `/collection/v2_0/invoice/${id}`,
    callback: 'PUT',
    body: async () => invoice(OK),
    failing: async () => invoice('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.createInvoice(b as never, withCallback),
    get: (c, id) => c.collection.getInvoice(id),
    success: { ...money, externalId: 'inv-1', invoiceId: expect.stringMatching(UUID_V4) },
  },
  {
    name: 'collection.createPayment',
    path: '/collection/v2_0/payment',
    lookup: (id) => `/collection/v2_0/payment/${id}`,
    callback: 'PUT',
    body: async () => payment(OK),
    failing: async () => payment('46733123450'),
    reason: 'INTERNAL_PROCESSING_ERROR',
    send: (c, b) => c.collection.createPayment(b as never, withCallback),
    get: (c, id) => c.collection.getPayment(id),
    success: { financialTransactionId: expect.any(String) },
  },
  {
    name: 'collection.requestToWithdrawV1',
    path: '/collection/v1_0/requesttowithdraw',
    lookup: (id) => `/collection/v1_0/requesttowithdraw/${id}`,
    callback: 'POST',
    body: async () => withdraw(OK),
    failing: async () => withdraw('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.requestToWithdrawV1(b as never, withCallback),
    get: (c, id) => c.collection.getRequestToWithdraw(id),
    success: { ...money, payer: party(OK) },
  },
  {
    name: 'disbursement.depositV2',
    path: '/disbursement/v2_0/deposit',
    lookup: (id) => `/disbursement/v1_0/deposit/${id}`,
    callback: 'PUT',
    body: async () => deposit(OK),
    failing: async () => deposit('46733123456'),
    reason: 'PAYEE_NOT_FOUND',
    send: (c, b) => c.disbursement.depositV2(b as never, withCallback),
    get: (c, id) => c.disbursement.getDeposit(id),
    success: { ...money, payee: party(OK) },
  },
  {
    name: 'disbursement.refundV2',
    path: '/disbursement/v2_0/refund',
    lookup: (id) => `/disbursement/v1_0/refund/${id}`,
    callback: 'PUT',
    body: refundOfDeposit,
    // An unknown transaction to refund: the refund rules end it NOT_ALLOWED.
    failing: async () => ({
      ...money,
      externalId: 'r-2',
      referenceIdToRefund: '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77',
    }),
    reason: 'NOT_ALLOWED',
    send: (c, b) => c.disbursement.refundV2(b as never, withCallback),
    get: (c, id) => c.disbursement.getRefund(id),
    success: { amount: '5', currency: 'EUR' },
  },
];
