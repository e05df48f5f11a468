import { HOST_NAME } from '../hosts';
import { badRequest, codeError, empty, json } from '../http';
import type { Route, RouteContext } from '../router';
import { isUuidV4 } from '../validation';
import { jsonBody, referenceIdHeader } from './transactions';

/**
 * The sandbox provisioning API (the provider's "Sandbox User Provisioning" document):
 * subscription key only, no Authorization, no X-Target-Environment. Users created here
 * may then ask the token endpoints for tokens with their id and key.
 */

function userId(ctx: RouteContext): string {
  const id = ctx.params.id ?? '';
  if (!isUuidV4(id)) return badRequest('The API user id must be a UUID version 4.');
  return id;
}

function notFound(): Response {
  return codeError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
}

function createUser(ctx: RouteContext): Response {
  const id = referenceIdHeader(ctx);
  const body = jsonBody(ctx);
  const host = (body as { providerCallbackHost?: unknown } | null)?.providerCallbackHost;
  if (typeof host !== 'string' || !HOST_NAME.test(host)) {
    return badRequest('providerCallbackHost must be a host name such as partner.example.');
  }
  if (!ctx.apiUsers.create(id, host, ctx.partner.name)) {
    return codeError(
      409,
      'RESOURCE_ALREADY_EXIST',
      'Duplicated reference id. Creation of resource failed.',
    );
  }
  return empty(201);
}

function createApiKey(ctx: RouteContext): Response {
  const apiKey = ctx.apiUsers.issueKey(userId(ctx));
  return apiKey === undefined ? notFound() : json(201, { apiKey });
}

function getUser(ctx: RouteContext): Response {
  const user = ctx.apiUsers.get(userId(ctx));
  if (!user) return notFound();
  return json(200, {
    providerCallbackHost: user.providerCallbackHost,
    targetEnvironment: ctx.options.targetEnvironment,
  });
}

const provisioning = {
  // The subscription key is the simulator's one key, whatever the product.
  product: 'collection',
  auth: 'none',
  targetEnvironment: 'ignored',
} as const;

export const sandboxRoutes: Route[] = [
  { ...provisioning, method: 'POST', path: '/v1_0/apiuser', handle: createUser },
  { ...provisioning, method: 'POST', path: '/v1_0/apiuser/{id}/apikey', handle: createApiKey },
  { ...provisioning, method: 'GET', path: '/v1_0/apiuser/{id}', handle: getUser },
];
