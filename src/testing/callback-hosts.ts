import type { ApiUserStore } from './api-users';
import { basicUserId } from './guards';
import { hostNameOf, isLoopbackHost } from './hosts';
import type { ResolvedOptions } from './options';
import type { RouteContext } from './router';

/**
 * The callback-host rules: which API user made a creating call, whether its X-Callback-Url
 * host is that user's providerCallbackHost (`enforceCallbackHost`, as the sandbox refuses
 * others), and which hosts the simulator sends callbacks to over the network.
 */

/**
 * The API user behind a call: the subject of its access token, or the user of its Basic
 * credentials; the configured API user otherwise (no Authorization, a consent token).
 */
export function callerOf(ctx: RouteContext): string {
  if (ctx.token?.kind === 'access') return ctx.token.subject;
  return basicUserId(ctx.headers.get('authorization') ?? '') ?? ctx.options.apiUser.id;
}

/** The providerCallbackHost of an API user (configured or provisioned), lower case. */
function providerCallbackHost(
  userId: string,
  options: ResolvedOptions,
  apiUsers: ApiUserStore,
): string | undefined {
  if (userId.toLowerCase() === options.apiUser.id.toLowerCase()) {
    return options.providerCallbackHost;
  }
  return apiUsers.get(userId)?.providerCallbackHost.toLowerCase();
}

/**
 * With `enforceCallbackHost`, why the sandbox would refuse this callback URL (its host is
 * not the caller's providerCallbackHost); undefined when it is accepted.
 */
export function enforcedHostRefusal(ctx: RouteContext, url: string): string | undefined {
  if (!ctx.options.enforceCallbackHost) return undefined;
  const host = hostNameOf(url, 'url');
  const wanted = providerCallbackHost(callerOf(ctx), ctx.options, ctx.apiUsers);
  if (wanted === undefined) {
    return `Callback URL host ${host} is refused: the API user has no providerCallbackHost (createSimulator({ providerCallbackHost }), or the CLI's --provider-callback-host).`;
  }
  if (host === wanted) return undefined;
  return `Callback URL host ${host} is not the API user's providerCallbackHost ${wanted}.`;
}

/**
 * Why a callback to `url`, for a transaction made by `createdBy`, is not sent over the
 * network: its host is neither loopback, nor that API user's providerCallbackHost, nor in
 * `callbackHosts`. Undefined when it may be sent.
 */
export function deliveryRefusal(
  url: string,
  createdBy: string | undefined,
  options: ResolvedOptions,
  apiUsers: ApiUserStore,
): string | undefined {
  const host = hostNameOf(url, 'url');
  if (host === undefined) return 'refused: not an absolute URL; nothing was sent';
  if (isLoopbackHost(host) || options.callbackHosts.some((h) => h === '*' || h === host)) {
    return undefined;
  }
  const own = createdBy && providerCallbackHost(createdBy, options, apiUsers);
  if (own === host) return undefined;
  return `refused: ${host} is not a callback host of this simulator (loopback, the API user's providerCallbackHost, or callbackHosts); nothing was sent`;
}
