import { cashTransferBody, cashTransferResult } from '../../schemas/remittance';
import { transferBody } from '../../schemas/transactions';
import { creating, lookup } from '../endpoints';
import { accountOperations } from './account';

const product = 'remittance';

const getTransfer = lookup(product, 'getTransfer', 'GET /remittance/v1_0/transfer/{referenceId}');
const getCashTransfer = lookup(
  product,
  'getCashTransfer',
  'GET /remittance/v2_0/cashtransfer/{referenceId}',
  cashTransferResult,
);

/**
 * Remittance's operations. Its document has basic user info by MSISDN only (its two
 * other basic-user-info paths, with `clone-` and `999`, are portal artefacts).
 */
export const remittanceOperations = {
  ...accountOperations(product), // 4.20
  getTransfer,
  getCashTransfer,
  transfer: creating(product, 'transfer', 'POST /remittance/v1_0/transfer', transferBody, {
    lookup: getTransfer,
    callback: 'POST',
  }), // 4.2
  cashTransfer: creating(
    product,
    'cashTransfer',
    'POST /remittance/v2_0/cashtransfer',
    cashTransferBody,
    { lookup: getCashTransfer, callback: 'POST' },
  ), // 4.8
};
