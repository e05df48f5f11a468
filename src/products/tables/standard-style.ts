import * as z from 'zod/mini';
import { accountStatus, heartbeat } from '../../schemas/collection';
import { lazy } from '../../schemas/lazy';
import { standardAccepted, standardDisbursementBody } from '../../schemas/standard';
import { callbackOnly, creating, endpoint } from '../endpoints';

/**
 * Collection's standard-style (`/mm/`) endpoints: routed by
 * X-Account-Holding-Institution-Identifier, errors in the 7.2 format.
 */
export const standardStyle = {
  standardDisbursement: creating(
    'collection',
    'standardDisbursement',
    'POST /collection/v1.2/mm/Transactions/Type/Disbursement',
    standardDisbursementBody,
    callbackOnly('PUT'), // 4.6 shows no lookup
    {
      creates: 'correlation',
      routing: 'institution',
      // A repeated X-CorrelationID is answered DuplicateRequest (spec 7.2), not 409.
      landed: ({ status, code }) =>
        (status === 400 || status === 409) && code === 'DuplicateRequest',
    },
    // tolerant: a 202 without its body is still accepted
    lazy(() => z.optional(standardAccepted())),
  ), // 4.6
  getAccountStatus: endpoint(
    'collection',
    'getAccountStatus',
    'GET /collection/v1_2/mm/accounts/{identifierType}/{identifier}/status',
    { result: accountStatus },
    { routing: 'institution' },
  ), // 4.11
  heartbeat: endpoint(
    'collection',
    'heartbeat',
    'GET /collection/v1.2/mm/Heartbeat',
    { result: heartbeat },
    { routing: 'none' },
  ), // 4.17
};
