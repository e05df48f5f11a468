import * as z from 'zod/mini';
import {
  deliveryNotificationBody,
  requestToPayBody,
  voucherOtp,
  voucherRedeemBody,
  voucherToken,
} from '../../schemas/collection';
import {
  approvedPreApprovals,
  cancelInvoiceBody,
  invoiceBody,
  invoiceResult,
  paymentBody,
  paymentResult,
  preApprovalBody,
  preApprovalHolderIdType,
  preApprovalId,
  preApprovalResult,
} from '../../schemas/collection-v2';
import { lazy } from '../../schemas/lazy';
import { callbackOnly, creating, endpoint, lookup, referenceIdParam } from '../endpoints';
import { accountOperations, basicUserInfoById } from './account';
import { standardStyle } from './standard-style';

const product = 'collection';

const getRequestToPay = lookup(
  product,
  'getRequestToPay',
  'GET /collection/v1_0/requesttopay/{referenceId}',
);
const getRequestToWithdraw = lookup(
  product,
  'getRequestToWithdraw',
  'GET /collection/v1_0/requesttowithdraw/{referenceId}',
);
const getPreApproval = lookup(
  product,
  'getPreApproval',
  'GET /collection/v2_0/preapproval/{referenceId}',
  preApprovalResult,
);
const getInvoice = lookup(
  product,
  'getInvoice',
  'GET /collection/v2_0/invoice/{referenceId}',
  invoiceResult,
);
const getPayment = lookup(
  product,
  'getPayment',
  'GET /collection/v2_0/payment/{referenceId}',
  paymentResult,
);

/** Collection's operations: the specification's and the provider documents'. */
export const collectionOperations = {
  ...standardStyle,
  ...accountOperations(product), // 4.16
  getBasicUserInfoById: basicUserInfoById(product),
  getRequestToPay,
  getRequestToWithdraw,
  getPreApproval,
  getInvoice,
  getPayment,
  requestToPay: creating(
    product,
    'requestToPay',
    'POST /collection/v1_0/requesttopay',
    requestToPayBody,
    { lookup: getRequestToPay, callback: 'PUT' },
  ),
  requestToWithdraw: creating(
    product,
    'requestToWithdraw',
    'PUT /collection/v2_0/requesttowithdraw',
    requestToPayBody,
    { lookup: getRequestToWithdraw, callback: 'PUT' },
  ), // 4.10
  /** The provider documents' form of 4.10 (`compat: 'provider'`). */
  requestToWithdrawByPost: creating(
    product,
    'requestToWithdraw',
    'POST /collection/v2_0/requesttowithdraw',
    requestToPayBody,
    { lookup: getRequestToWithdraw, callback: 'PUT' },
  ),
  requestToWithdrawV1: creating(
    product,
    'requestToWithdrawV1',
    'POST /collection/v1_0/requesttowithdraw',
    requestToPayBody,
    { lookup: getRequestToWithdraw, callback: 'POST' },
  ),
  redeemVoucher: creating(
    product,
    'redeemVoucher',
    'POST /collection/v2_0/voucher/{voucherToken}/redeem',
    voucherRedeemBody,
    callbackOnly('PUT'), // 4.12 shows no lookup
    { params: { voucherToken } },
  ), // 4.12
  preApproval: creating(
    product,
    'preApproval',
    'POST /collection/v2_0/preapproval',
    preApprovalBody,
    { lookup: getPreApproval, callback: 'PUT' },
  ),
  createInvoice: creating(product, 'createInvoice', 'POST /collection/v2_0/invoice', invoiceBody, {
    lookup: getInvoice,
    callback: 'PUT',
  }),
  createPayment: creating(product, 'createPayment', 'POST /collection/v2_0/payment', paymentBody, {
    lookup: getPayment,
    callback: 'PUT',
  }),
  /**
   * A DELETE with its own X-Reference-Id: the id names the cancellation, not the
   * invoice, so no lookup reads it; the 200 answer is its outcome.
   */
  cancelInvoice: creating(
    product,
    'cancelInvoice',
    'DELETE /collection/v2_0/invoice/{referenceId}',
    cancelInvoiceBody,
    callbackOnly('PUT'),
    { params: { referenceId: referenceIdParam.referenceId } },
    lazy(z.unknown),
  ),
  getApprovedPreApprovals: endpoint(
    product,
    'getApprovedPreApprovals',
    'GET /collection/v1_0/preapprovals/{accountHolderIdType}/{accountHolderId}',
    { result: approvedPreApprovals },
    { params: { accountHolderIdType: preApprovalHolderIdType, accountHolderId: preApprovalId } },
  ),
  cancelPreApproval: endpoint(
    product,
    'cancelPreApproval',
    'DELETE /collection/v1_0/preapproval/{preApprovalId}',
    {},
    { params: { preApprovalId } },
  ),
  sendDeliveryNotification: endpoint(
    product,
    'sendDeliveryNotification',
    'POST /collection/v1_0/requesttopay/{referenceId}/deliverynotification',
    { body: deliveryNotificationBody },
    {
      params: referenceIdParam,
      // 429 "occurs only after a successful attempt" (spec 4.14): on a retry it means delivered.
      landed: ({ status }) => status === 429,
    },
  ), // 4.14
  getVoucherOtp: endpoint(
    product,
    'getVoucherOtp',
    'GET /collection/v3_0/voucher/{voucherToken}/otp/cancel',
    { result: voucherOtp },
    { params: { voucherToken } },
  ), // 4.15
};
