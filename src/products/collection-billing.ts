import type { Final, WaitOptions } from '../contracts/wait';
import type { OperationPromise } from '../core/operation-promise';
import type { RequestOptions } from '../core/options';
import {
  approvedQuery,
  type CancelInvoiceBody,
  type InvoiceBody,
  type InvoiceResult,
  type PaymentBody,
  type PaymentResult,
  type PreApprovalBody,
  type PreApprovalDetails,
  type PreApprovalHolderIdType,
  type PreApprovalResult,
} from '../schemas/collection-v2';
import { validateInput } from '../schemas/validate';
import type { Submitted } from './product-api';
import { apiOf, ProductBase } from './product-base';
import { collectionOperations as op } from './tables/collection';

/** What `cancelInvoice` resolves to once the service answered 200. */
export interface CancelledInvoice extends Submitted {
  /** The invoice cancelled (its creation's reference id). */
  invoiceReferenceId: string;
}

/**
 * Collection's pre-approvals, invoices and payments (the provider's documents;
 * docs/products.md). Each creating call is journalled, retried under its one X-Reference-Id, and
 * awaited by the lookup its table names.
 */
export class CollectionBilling extends ProductBase {
  /** POST /collection/v2_0/preapproval: the payer approves future debits (callback by PUT). */
  preApproval(
    body: PreApprovalBody,
    options?: RequestOptions,
  ): OperationPromise<PreApprovalResult> {
    return apiOf(this).create(op.preApproval, body, options);
  }

  /** GET /collection/v2_0/preapproval/{referenceId} */
  getPreApproval(referenceId: string, options?: RequestOptions): Promise<PreApprovalResult> {
    return apiOf(this).lookup(op.getPreApproval, referenceId, options);
  }

  /** Polls the pre-approval's lookup until it is SUCCESSFUL or FAILED (what `Accepted.wait` calls). */
  waitForPreApproval(
    referenceId: string,
    options?: WaitOptions<PreApprovalResult>,
  ): Promise<Final<PreApprovalResult>> {
    return apiOf(this).waitFor(op.getPreApproval, referenceId, options);
  }

  /**
   * GET /collection/v1_0/preapprovals/{idType}/{id}: the holder's approved pre-approvals
   * whose payee is the caller (an empty list when there is none).
   */
  async getApprovedPreApprovals(
    idType: PreApprovalHolderIdType,
    id: string,
    options?: RequestOptions,
  ): Promise<PreApprovalDetails[]> {
    const params = validateInput(
      approvedQuery,
      { accountHolderIdType: idType, accountHolderId: id },
      '',
      op.getApprovedPreApprovals.name,
    );
    return apiOf(this).send(op.getApprovedPreApprovals, { params, options });
  }

  /**
   * DELETE /collection/v1_0/preapproval/{preApprovalId}: cancels an approved
   * pre-approval whose payee is the caller (the id comes from `getApprovedPreApprovals`).
   */
  async cancelPreApproval(preApprovalIdValue: string, options?: RequestOptions): Promise<void> {
    await apiOf(this).send(op.cancelPreApproval, {
      params: { preApprovalId: preApprovalIdValue },
      options,
    });
  }

  /** POST /collection/v2_0/invoice (callback by PUT). */
  createInvoice(body: InvoiceBody, options?: RequestOptions): OperationPromise<InvoiceResult> {
    return apiOf(this).create(op.createInvoice, body, options);
  }

  /** GET /collection/v2_0/invoice/{referenceId}: CREATED, PENDING, SUCCESSFUL or FAILED. */
  getInvoice(referenceId: string, options?: RequestOptions): Promise<InvoiceResult> {
    return apiOf(this).lookup(op.getInvoice, referenceId, options);
  }

  /** Polls the invoice's lookup until it is SUCCESSFUL or FAILED (what `Accepted.wait` calls). */
  waitForInvoice(
    referenceId: string,
    options?: WaitOptions<InvoiceResult>,
  ): Promise<Final<InvoiceResult>> {
    return apiOf(this).waitFor(op.getInvoice, referenceId, options);
  }

  /**
   * DELETE /collection/v2_0/invoice/{referenceId} with `{ externalId }`: a call of its
   * own X-Reference-Id (`options.referenceId`, or a new one), retried under it, with an
   * optional X-Callback-Url.
   */
  async cancelInvoice(
    referenceId: string,
    body: CancelInvoiceBody,
    options?: RequestOptions,
  ): Promise<CancelledInvoice> {
    const { result: _, ...submitted } = await apiOf(this).complete(op.cancelInvoice, {
      params: { referenceId },
      body,
      options,
    });
    return { ...submitted, invoiceReferenceId: referenceId };
  }

  /** POST /collection/v2_0/payment: pays a bill or a top-up (callback by PUT). */
  createPayment(body: PaymentBody, options?: RequestOptions): OperationPromise<PaymentResult> {
    return apiOf(this).create(op.createPayment, body, options);
  }

  /** GET /collection/v2_0/payment/{referenceId}: CREATED, PENDING, SUCCESSFUL or FAILED. */
  getPayment(referenceId: string, options?: RequestOptions): Promise<PaymentResult> {
    return apiOf(this).lookup(op.getPayment, referenceId, options);
  }

  /** Polls the payment's lookup until it is SUCCESSFUL or FAILED (what `Accepted.wait` calls). */
  waitForPayment(
    referenceId: string,
    options?: WaitOptions<PaymentResult>,
  ): Promise<Final<PaymentResult>> {
    return apiOf(this).waitFor(op.getPayment, referenceId, options);
  }
}
