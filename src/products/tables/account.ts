import type { ProductName } from '../../core/options';
import { activeIdType, activeResult, basicInfoIdType, holderId } from '../../schemas/accountholder';
import { currency, msisdn } from '../../schemas/common';
import { userInfo } from '../../schemas/remittance';
import { balance, basicUserInfo } from '../../schemas/transactions';
import { endpoint } from '../endpoints';

/**
 * What every product answers about accounts (the provider's documents list these on
 * each product): balance, account-holder checks, user info with consent.
 */
export function accountOperations<P extends ProductName>(product: P) {
  return {
    getBalance: endpoint(product, 'getBalance', `GET /${product}/v1_0/account/balance`, {
      result: balance,
    }),
    getBalanceInCurrency: endpoint(
      product,
      'getBalance',
      `GET /${product}/v1_0/account/balance/{currency}`,
      { result: balance },
      { params: { currency } },
    ),
    isAccountHolderActive: endpoint(
      product,
      'isAccountHolderActive',
      `GET /${product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/active`,
      { result: activeResult },
      { params: { accountHolderIdType: activeIdType, accountHolderId: holderId } },
    ),
    getBasicUserInfo: endpoint(
      product,
      'getBasicUserInfo',
      `GET /${product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`,
      { result: basicUserInfo },
      { params: { msisdn } },
    ),
    getUserInfo: endpoint(
      product,
      'getUserInfo',
      `GET /${product}/oauth2/v1_0/userinfo`,
      { result: userInfo },
      { auth: 'consent' },
    ),
  };
}

/** Basic user info by any identity kind: on the products whose document has it. */
export const basicUserInfoById = (product: ProductName) =>
  endpoint(
    product,
    'getBasicUserInfo',
    `GET /${product}/v1_0/accountholder/{accountHolderIdType}/{accountHolderId}/basicuserinfo`,
    { result: basicUserInfo },
    { params: { accountHolderIdType: basicInfoIdType, accountHolderId: holderId } },
  );
