import type { AccessToken } from '../auth/access-token';
import type { ConsentRequestOptions } from '../auth/consent-token';
import type { MomoClientOptions, ProductName, RequestOptions } from '../core/options';
import { type ActiveIdType, activeHolder, basicInfoHolder } from '../schemas/accountholder';
import type { UserInfo } from '../schemas/remittance';
import type { Balance, BasicUserInfo } from '../schemas/transactions';
import { validateInput } from '../schemas/validate';
import { sharedContext } from './client-context';
import type { ProductApi } from './product-api';
import type { basicUserInfoById } from './tables/account';
import { collectionOperations } from './tables/collection';
import { disbursementOperations } from './tables/disbursement';
import { remittanceOperations } from './tables/remittance';

/** Each product's table: its account rows are what these methods send. */
const TABLES = {
  disbursement: disbursementOperations,
  collection: collectionOperations,
  remittance: remittanceOperations,
};
type AccountOperations = (typeof TABLES)[ProductName];

/** Each product's verbs, kept out of the public declarations (no protected member). */
const apis = new WeakMap<object, ProductApi>();

/** The verbs of a product object (what its own methods are written in). */
export function apiOf(product: ProductBase): ProductApi {
  return apis.get(product) as ProductApi;
}

/** Basic user info by id kind (collection, disbursement): the id checked against its kind. */
export async function sendBasicUserInfoById(
  product: ProductBase,
  op: ReturnType<typeof basicUserInfoById>,
  [accountHolderIdType, accountHolderId, options]: [string, string, RequestOptions | undefined],
): Promise<BasicUserInfo> {
  const params = validateInput(
    basicInfoHolder,
    { accountHolderIdType, accountHolderId },
    '',
    op.name,
  );
  return apiOf(product).send(op, { params, options });
}

/**
 * Every product's base (disbursement, remittance and, through its billing side,
 * collection extend it): what every product answers about accounts: balance (in a
 * currency too), whether an account holder is active, basic user info, user info with
 * consent, its access token.
 */
export class ProductBase {
  readonly #product: ProductName;
  readonly #ops: AccountOperations;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(product: ProductName, options: MomoClientOptions, context?: unknown) {
    this.#product = product;
    this.#ops = TABLES[product];
    apis.set(this, sharedContext(options, context).api);
  }

  /** GET /{product}/v1_0/account/balance, or …/balance/{currency} for one currency. */
  getBalance(currencyCode?: string, options?: RequestOptions): Promise<Balance>;
  getBalance(options?: RequestOptions): Promise<Balance>;
  getBalance(first?: string | RequestOptions, second?: RequestOptions): Promise<Balance> {
    if (typeof first === 'string') {
      return apiOf(this).send(this.#ops.getBalanceInCurrency, {
        params: { currency: first },
        options: second,
      });
    }
    return apiOf(this).send(this.#ops.getBalance, { options: first ?? second });
  }

  /**
   * GET /{product}/v1_0/accountholder/{idType}/{id}/active: `true` when the account
   * holder is registered and active (validate an account before crediting or debiting it).
   */
  async isAccountHolderActive(
    idType: ActiveIdType,
    id: string,
    options?: RequestOptions,
  ): Promise<boolean> {
    const op = this.#ops.isAccountHolderActive;
    const params = validateInput(
      activeHolder,
      { accountHolderIdType: idType, accountHolderId: id },
      '',
      op.name,
    );
    return apiOf(this).send(op, { params, options });
  }

  /** GET /{product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo (no consent needed). */
  getBasicUserInfo(accountHolderMsisdn: string, options?: RequestOptions): Promise<BasicUserInfo> {
    return apiOf(this).send(this.#ops.getBasicUserInfo, {
      params: { msisdn: accountHolderMsisdn },
      options,
    });
  }

  /** GET /{product}/oauth2/v1_0/userinfo with the account holder's consent token. */
  getUserInfo(options: ConsentRequestOptions): Promise<UserInfo> {
    return apiOf(this).send(this.#ops.getUserInfo, { options });
  }

  /** POST /{product}/token/ (Basic), served from the shared cache unless `forceRefresh`. */
  getAccessToken(options?: { forceRefresh?: boolean }): Promise<AccessToken> {
    return apiOf(this).accessToken(this.#product, options);
  }
}
