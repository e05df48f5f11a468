import { defineOperation } from '../core/operation';
import { uuidV4 } from '../schemas/common';
import { apiKeyResult, apiUserResult, createUserBody } from '../schemas/sandbox';

/**
 * The sandbox provisioning API (the provider's "Sandbox User Provisioning" document).
 * Only the subscription key goes with these calls: no Authorization (there is no API
 * user yet) and no X-Target-Environment (the sandbox is the only one).
 */
const provisioning = {
  // Any product's key works here; the Sandbox's config has one default key for all.
  product: 'collection',
  auth: 'none',
  routing: 'none',
} as const;

export const sandboxOperations = {
  /** POST /v1_0/apiuser: X-Reference-Id is the new user's id; 201, no body. */
  createUser: defineOperation({
    ...provisioning,
    name: 'sandbox.createUser',
    method: 'POST',
    path: '/v1_0/apiuser',
    creates: true,
    body: createUserBody,
  }),
  /** POST /v1_0/apiuser/{id}/apikey: 201 `{apiKey}`; each call issues a new key. */
  createApiKey: defineOperation({
    ...provisioning,
    name: 'sandbox.createApiKey',
    method: 'POST',
    path: '/v1_0/apiuser/{id}/apikey',
    params: { id: uuidV4 },
    result: apiKeyResult,
  }),
  /** GET /v1_0/apiuser/{id}: 200 `{providerCallbackHost, targetEnvironment}`. */
  getUser: defineOperation({
    ...provisioning,
    name: 'sandbox.getUser',
    method: 'GET',
    path: '/v1_0/apiuser/{id}',
    params: { id: uuidV4 },
    result: apiUserResult,
  }),
};
