import { collectionOperations } from './collection';
import { consentOperations } from './consent';
import { disbursementOperations } from './disbursement';
import { remittanceOperations } from './remittance';

/**
 * Every operation table, the single source of truth: product methods, the journal's
 * resume and cross-instance confirmation (through the client context), the CLI
 * `status` command, and the checks of docs/endpoints.md read them.
 */
export const operationTables = {
  disbursement: disbursementOperations,
  collection: collectionOperations,
  remittance: remittanceOperations,
  consent: consentOperations,
};

export { collectionOperations, consentOperations, disbursementOperations, remittanceOperations };
