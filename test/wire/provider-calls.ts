import type { MomoClient } from 'momo-partner-sdk';
import type { DocumentName } from './provider-mock';

/** One operation of a provider document, reached through the SDK. */
export interface DocumentCall {
  /** `METHOD /path` as the document writes it (product prefix stripped). */
  operation: string;
  /** The SDK call; `momo` uses the specification's forms, `provider` `compat: 'provider'`. */
  run(
    clients: { momo: MomoClient; provider: MomoClient },
    options?: { headers: Record<string, string> },
  ): Promise<unknown>;
  /** Added for the provider's whole API (DESIGN 7.1): its documented errors are checked too. */
  added?: true;
}

export const REF = '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77';
const party = { partyIdType: 'MSISDN', partyId: '46733123453' } as const;
const payee = { partyIdType: 'MSISDN', partyId: '46733123454' } as const;
const money = { amount: '25', currency: 'EUR', externalId: '6353636' };
const notes = { payerMessage: 'Order 42', payeeNote: 'Thank you' };
const transfer = { ...money, payee, ...notes };
const requestToPay = { ...money, payer: party, ...notes };
const refund = { amount: '5', currency: 'EUR', externalId: 'r-1', referenceIdToRefund: REF };
const consent = { consent: 'consent-access-token' };
const authorize = { msisdn: '46733123453', scope: 'profile', accessType: 'offline' } as const;

/** The three products' calls common to every document. */
function accountCalls(product: DocumentName): DocumentCall[] {
  return [
    { operation: 'GET /v1_0/account/balance', run: ({ momo }, o) => momo[product].getBalance(o) },
    {
      operation: 'GET /v1_0/account/balance/{currency}',
      run: ({ momo }, o) => momo[product].getBalance('EUR', o),
      added: true,
    },
    {
      operation: 'GET /v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/active',
      run: ({ momo }, o) => momo[product].isAccountHolderActive('msisdn', '46733123453', o),
      added: true,
    },
    {
      operation: 'POST /v1_0/bc-authorize',
      run: ({ momo }, o) => momo.consent.authorize({ ...authorize, product }, o),
      added: true,
    },
    {
      operation: 'POST /oauth2/token/',
      run: ({ momo }, o) => momo.consent.getToken('auth-req-id-1', { ...o, product }),
      added: true,
    },
    {
      operation: 'GET /oauth2/v1_0/userinfo',
      run: ({ momo }, o) => momo[product].getUserInfo({ ...consent, ...o }),
      added: true,
    },
    {
      operation: 'POST /token/',
      run: ({ momo }) => momo[product].getAccessToken({ forceRefresh: true }),
    },
  ];
}

export const CALLS: Record<DocumentName, DocumentCall[]> = {
  collection: [
    ...accountCalls('collection'),
    {
      operation: 'GET /v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/basicuserinfo',
      run: ({ momo }, o) => momo.collection.getBasicUserInfo('MSISDN', '46733123453', o),
      added: true,
    },
    {
      operation: 'POST /v1_0/requesttopay',
      run: ({ momo }, o) => momo.collection.requestToPay(requestToPay, o),
    },
    {
      operation: 'GET /v1_0/requesttopay/{referenceId}',
      run: ({ momo }, o) => momo.collection.getRequestToPay(REF, o),
    },
    {
      operation: 'POST /v1_0/requesttopay/{referenceId}/deliverynotification',
      run: ({ momo }, o) =>
        momo.collection.sendDeliveryNotification(REF, 'Your order is on its way', o),
    },
    {
      operation: 'POST /v1_0/requesttowithdraw',
      run: ({ momo }, o) => momo.collection.requestToWithdrawV1(requestToPay, o),
      added: true,
    },
    {
      operation: 'POST /v2_0/requesttowithdraw',
      run: ({ provider }, o) => provider.collection.requestToWithdraw(requestToPay, o),
    },
    {
      operation: 'GET /v1_0/requesttowithdraw/{referenceId}',
      run: ({ momo }, o) => momo.collection.getRequestToWithdraw(REF, o),
    },
    {
      operation: 'POST /v2_0/invoice',
      run: ({ momo }, o) =>
        momo.collection.createInvoice(
          {
            externalId: 'inv-1',
            amount: '20',
            currency: 'EUR',
            validityDuration: '3600',
            intendedPayer: party,
            payee,
            description: 'Invoice 1',
          },
          o,
        ),
      added: true,
    },
    {
      operation: 'GET /v2_0/invoice/{x-referenceId}',
      run: ({ momo }, o) => momo.collection.getInvoice(REF, o),
      added: true,
    },
    {
      operation: 'DELETE /v2_0/invoice/{referenceId}',
      run: ({ momo }, o) => momo.collection.cancelInvoice(REF, { externalId: 'inv-1' }, o),
      added: true,
    },
    {
      operation: 'POST /v2_0/preapproval',
      run: ({ momo }, o) =>
        momo.collection.preApproval(
          { payer: party, payerCurrency: 'EUR', payerMessage: 'Monthly plan', validityTime: 3600 },
          o,
        ),
      added: true,
    },
    {
      operation: 'GET /v2_0/preapproval/{referenceId}',
      run: ({ momo }, o) => momo.collection.getPreApproval(REF, o),
      added: true,
    },
    {
      operation: 'GET /v1_0/preapprovals/{accountHolderIdType}/{accountHolderId}',
      run: ({ momo }, o) => momo.collection.getApprovedPreApprovals('msisdn', '46733123453', o),
      added: true,
    },
    {
      operation: 'DELETE /v1_0/preapproval/{preapprovalid}',
      run: ({ momo }, o) => momo.collection.cancelPreApproval('pa-12345', o),
      added: true,
    },
    {
      operation: 'POST /v2_0/payment',
      run: ({ momo }, o) =>
        momo.collection.createPayment(
          {
            externalTransactionId: 'pay-1',
            money: { amount: '15', currency: 'EUR' },
            customerReference: '46733123454',
            serviceProviderUserName: 'Electricity Inc',
            receiverMessage: 'Bill 7',
            senderNote: 'Paid',
          },
          o,
        ),
      added: true,
    },
    {
      operation: 'GET /v2_0/payment/{x-referenceId}',
      run: ({ momo }, o) => momo.collection.getPayment(REF, o),
      added: true,
    },
  ],
  disbursement: [
    ...accountCalls('disbursement'),
    {
      operation: 'GET /v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/basicuserinfo',
      run: ({ momo }, o) => momo.disbursement.getBasicUserInfo('MSISDN', '46733123453', o),
      added: true,
    },
    {
      operation: 'POST /v1_0/transfer',
      run: ({ momo }, o) => momo.disbursement.transfer(transfer, o),
    },
    {
      operation: 'GET /v1_0/transfer/{referenceId}',
      run: ({ momo }, o) => momo.disbursement.getTransfer(REF, o),
    },
    {
      operation: 'POST /v1_0/deposit',
      run: ({ momo }, o) => momo.disbursement.deposit(transfer, o),
    },
    {
      operation: 'POST /v2_0/deposit',
      run: ({ momo }, o) => momo.disbursement.depositV2(transfer, o),
      added: true,
    },
    {
      operation: 'GET /v1_0/deposit/{referenceId}',
      run: ({ momo }, o) => momo.disbursement.getDeposit(REF, o),
    },
    { operation: 'POST /v1_0/refund', run: ({ momo }, o) => momo.disbursement.refund(refund, o) },
    {
      operation: 'POST /v2_0/refund',
      run: ({ momo }, o) => momo.disbursement.refundV2(refund, o),
      added: true,
    },
    {
      operation: 'GET /v1_0/refund/{referenceId}',
      run: ({ momo }, o) => momo.disbursement.getRefund(REF, o),
    },
  ],
  remittance: [
    ...accountCalls('remittance'),
    {
      operation: 'GET /v1_0/accountholder/msisdn/{accountHolderMSISDN}/basicuserinfo',
      run: ({ momo }, o) => momo.remittance.getBasicUserInfo('46733123453', o),
      added: true,
    },
    {
      operation: 'POST /v1_0/transfer',
      run: ({ momo }, o) => momo.remittance.transfer(transfer, o),
    },
    {
      operation: 'GET /v1_0/transfer/{referenceId}',
      run: ({ momo }, o) => momo.remittance.getTransfer(REF, o),
    },
    {
      operation: 'POST /v2_0/cashtransfer',
      // SRSA given; `compat: 'provider'` sends the document's SRSSA.
      run: ({ provider }, o) =>
        provider.remittance.cashTransfer(
          {
            ...transfer,
            orginatingCountry: 'SE',
            originalAmount: '25',
            originalCurrency: 'EUR',
            payerIdentificationType: 'SRSA',
            payerIdentificationNumber: '19800101',
            payerFirstName: 'Ada',
            payerSurName: 'Lovelace',
          },
          o,
        ),
    },
    {
      operation: 'GET /v2_0/cashtransfer/{referenceId}',
      run: ({ momo }, o) => momo.remittance.getCashTransfer(REF, o),
    },
  ],
};
