import {
  type ActiveIdType,
  type BasicInfoIdType,
  type BasicUserInfo,
  type CancelInvoiceBody,
  type CancelledInvoice,
  type Compat,
  type ConsentRequest,
  type Final,
  type InvoiceBody,
  type InvoiceResult,
  MomoClient,
  type OperationPromise,
  type PaymentBody,
  type PaymentResult,
  type PreApprovalBody,
  type PreApprovalDetails,
  type PreApprovalHolderIdType,
  type PreApprovalResult,
  type TransactionResult,
} from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type * as accountholder from '../../src/schemas/accountholder';
import type * as v2 from '../../src/schemas/collection-v2';
import type { Input, Output } from '../../src/schemas/lazy';

const momo = new MomoClient({
  baseUrl: 'https://x.test',
  targetEnvironment: 'sandbox',
  compat: 'provider',
});
const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;

describe("the provider's whole API (DESIGN 7.1)", () => {
  it('pre-approvals, invoices and payments are creating calls with their own results', () => {
    expectTypeOf(momo.collection.preApproval({ payer, payerCurrency: 'EUR' })).toEqualTypeOf<
      OperationPromise<PreApprovalResult>
    >();
    expectTypeOf(momo.collection.waitForInvoice('id')).toEqualTypeOf<
      Promise<Final<InvoiceResult>>
    >();
    expectTypeOf(momo.collection.getPayment('id')).toEqualTypeOf<Promise<PaymentResult>>();
    expectTypeOf<InvoiceResult['status']>().toEqualTypeOf<
      'CREATED' | 'PENDING' | 'SUCCESSFUL' | 'FAILED'
    >();
    expectTypeOf<PaymentResult['status']>().toEqualTypeOf<
      'CREATED' | 'PENDING' | 'SUCCESSFUL' | 'FAILED'
    >();
    expectTypeOf(momo.collection.getApprovedPreApprovals('msisdn', '1')).toEqualTypeOf<
      Promise<PreApprovalDetails[]>
    >();
    expectTypeOf(momo.collection.cancelInvoice('id', { externalId: 'x' })).toEqualTypeOf<
      Promise<CancelledInvoice>
    >();
    expectTypeOf(momo.collection.cancelPreApproval('pa-1')).toEqualTypeOf<Promise<void>>();
  });

  it('request to withdraw v1 and disbursement v2 are creating calls read as transactions', () => {
    const withdraw = { amount: '1', currency: 'EUR', payer };
    expectTypeOf(momo.collection.requestToWithdrawV1(withdraw)).toEqualTypeOf<
      OperationPromise<TransactionResult>
    >();
    const transfer = { amount: '1', currency: 'EUR', payee: payer };
    expectTypeOf(momo.disbursement.depositV2(transfer)).toEqualTypeOf<
      OperationPromise<TransactionResult>
    >();
  });

  it('every product answers account queries', () => {
    expectTypeOf(momo.remittance.isAccountHolderActive('msisdn', '1')).toEqualTypeOf<
      Promise<boolean>
    >();
    expectTypeOf(momo.collection.getBasicUserInfo('Email', 'a@b.c')).toEqualTypeOf<
      Promise<BasicUserInfo>
    >();
    expectTypeOf(momo.disbursement.getBalance('EUR')).toEqualTypeOf(momo.remittance.getBalance());
    // @ts-expect-error: the document's kinds only
    void momo.collection.isAccountHolderActive('alias', 'x');
    // @ts-expect-error: remittance's document has basic user info by MSISDN only
    void momo.remittance.getBasicUserInfo('Email', 'a@b.c');
  });

  it('consent takes a product', () => {
    const request = momo.consent.authorize({
      msisdn: '1',
      scope: 'profile',
      accessType: 'online',
      product: 'remittance',
    });
    expectTypeOf(request).toEqualTypeOf<Promise<ConsentRequest>>();
    expectTypeOf<Compat>().toEqualTypeOf<'spec' | 'provider'>();
  });

  it('the public interfaces are exactly what the schemas read and accept', () => {
    expectTypeOf<PreApprovalBody>().toMatchTypeOf<Input<typeof v2.preApprovalBody>>();
    expectTypeOf<Input<typeof v2.preApprovalBody>>().toMatchTypeOf<PreApprovalBody>();
    expectTypeOf<Output<typeof v2.preApprovalResult>>().toEqualTypeOf<PreApprovalResult>();
    expectTypeOf<Output<typeof v2.preApprovalDetails>>().toEqualTypeOf<PreApprovalDetails>();
    expectTypeOf<Output<typeof v2.invoiceResult>>().toEqualTypeOf<InvoiceResult>();
    expectTypeOf<Output<typeof v2.paymentResult>>().toEqualTypeOf<PaymentResult>();
    expectTypeOf<Input<typeof v2.invoiceBody>>().toMatchTypeOf<InvoiceBody>();
    expectTypeOf<InvoiceBody>().toMatchTypeOf<Input<typeof v2.invoiceBody>>();
    expectTypeOf<PaymentBody>().toMatchTypeOf<Input<typeof v2.paymentBody>>();
    expectTypeOf<Input<typeof v2.paymentBody>>().toMatchTypeOf<PaymentBody>();
    expectTypeOf<CancelInvoiceBody>().toEqualTypeOf<Input<typeof v2.cancelInvoiceBody>>();
    expectTypeOf<
      Output<typeof v2.preApprovalHolderIdType>
    >().toEqualTypeOf<PreApprovalHolderIdType>();
    expectTypeOf<Output<typeof accountholder.activeIdType>>().toEqualTypeOf<ActiveIdType>();
    expectTypeOf<Output<typeof accountholder.basicInfoIdType>>().toEqualTypeOf<BasicInfoIdType>();
  });
});
