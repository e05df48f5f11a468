import * as z from 'zod/mini';
import { defineOperation } from '../core/operation';
import { accountStatus, heartbeat } from '../schemas/collection';
import { standardAccepted, standardDisbursementBody } from '../schemas/standard';

const bearer = { product: 'collection', auth: 'bearer' } as const;

/**
 * Collection's standard-style (`/mm/`) endpoints: routed by
 * X-Account-Holding-Institution-Identifier, errors in the 7.2 format.
 */
export const standardStyle = {
  standardDisbursement: defineOperation({
    ...bearer,
    callback: true,
    creates: 'correlation',
    routing: 'institution',
    name: 'collection.standardDisbursement',
    method: 'POST',
    path: '/collection/v1.2/mm/Transactions/Type/Disbursement',
    body: standardDisbursementBody,
    result: z.optional(standardAccepted), // tolerant: a 202 without its body is still accepted
    // A repeated X-CorrelationID is answered DuplicateRequest (spec 7.2), not 409.
    landed: ({ status, code }) => (status === 400 || status === 409) && code === 'DuplicateRequest',
  }), // 4.6
  getAccountStatus: defineOperation({
    ...bearer,
    routing: 'institution',
    name: 'collection.getAccountStatus',
    method: 'GET',
    path: '/collection/v1_2/mm/accounts/{identifierType}/{identifier}/status',
    result: accountStatus,
  }), // 4.11
  heartbeat: defineOperation({
    ...bearer,
    routing: 'none',
    name: 'collection.heartbeat',
    method: 'GET',
    path: '/collection/v1.2/mm/Heartbeat',
    result: heartbeat,
  }), // 4.17
};
