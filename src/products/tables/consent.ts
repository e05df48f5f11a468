import type { ProductName } from '../../core/options';
import {
  authorizeForm,
  consentRequestResponse,
  consentTokenForm,
  consentTokenResponse,
} from '../../schemas/consent';
import { endpoint } from '../endpoints';

const authorizeOn = (product: ProductName, path: `/${string}`) =>
  endpoint(
    product,
    'consent.authorize',
    `POST ${path}`,
    { body: authorizeForm, result: consentRequestResponse },
    { encoding: 'form' },
  );

const getTokenOn = (product: ProductName) =>
  endpoint(
    product,
    'consent.getToken',
    `POST /${product}/oauth2/token/`,
    { body: consentTokenForm, result: consentTokenResponse },
    { auth: 'basic', encoding: 'form' },
  );

/**
 * The consent (CIBA) endpoints. Without a product, the specification's (4.21 and 4.9,
 * Collection's credentials, docs/credentials.md; `...withnewcapabilities` → base product); with
 * one, that product's own (the provider's documents list both on every product).
 */
export const consentOperations = {
  authorize: authorizeOn('collection', '/collectionwithnewcapabilities/v1_0/bc-authorize'), // 4.21
  getToken: getTokenOn('collection'), // 4.9
  authorizeOnDisbursement: authorizeOn('disbursement', '/disbursement/v1_0/bc-authorize'),
  authorizeOnCollection: authorizeOn('collection', '/collection/v1_0/bc-authorize'),
  authorizeOnRemittance: authorizeOn('remittance', '/remittance/v1_0/bc-authorize'),
  getTokenOnDisbursement: getTokenOn('disbursement'),
  getTokenOnRemittance: getTokenOn('remittance'),
};

/** The consent endpoints of one product (`undefined`: the specification's). */
export function consentOperationsOf(product: ProductName | undefined) {
  switch (product) {
    case 'disbursement':
      return {
        authorize: consentOperations.authorizeOnDisbursement,
        getToken: consentOperations.getTokenOnDisbursement,
      };
    case 'collection':
      return {
        authorize: consentOperations.authorizeOnCollection,
        getToken: consentOperations.getToken,
      };
    case 'remittance':
      return {
        authorize: consentOperations.authorizeOnRemittance,
        getToken: consentOperations.getTokenOnRemittance,
      };
    default:
      return consentOperations;
  }
}
