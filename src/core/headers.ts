import { version } from '../../package.json';
import type { Operation } from './operation';
import type { Secret } from './secret';

/**
 * `momo-partner-sdk/<version> <runtime>/<version>` where a client may set User-Agent
 * (Node, Bun, Deno); undefined in browsers, which refuse or ignore it.
 */
const USER_AGENT: string | undefined = (() => {
  const versions = globalThis.process?.versions as Record<string, string | undefined> | undefined;
  const deno = (globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno;
  const runtime = deno
    ? `deno/${deno}`
    : versions?.bun
      ? `bun/${versions.bun}`
      : versions?.node
        ? `node/${versions.node}`
        : undefined;
  return runtime && `momo-partner-sdk/${version} ${runtime}`;
})();

/** Headers the SDK owns: a caller's extra headers never replace them. */
const OWN_HEADERS = new Set([
  'authorization',
  'ocp-apim-subscription-key',
  'x-reference-id',
  'x-target-environment',
  'x-callback-url',
  'x-correlationid',
  'x-account-holding-institution-identifier',
  'content-type',
  'language',
]);

export interface HeaderInput {
  op: Operation<unknown, unknown>;
  subscriptionKey: Secret;
  targetEnvironment: string;
  institution: string;
  referenceId: string | undefined;
  callbackUrl: string | undefined;
  contentType: string | undefined;
  /** Set by the operation itself (e.g. Language). */
  own: Record<string, string> | undefined;
  /** The caller's `headers` option. */
  extra: Record<string, string> | undefined;
}

/** The headers of every attempt of one call, Authorization aside (it may change on replay). */
export function callHeaders(input: HeaderInput): Record<string, string> {
  const { op } = input;
  const headers: Record<string, string> = {};
  let userAgent = USER_AGENT; // a caller's own User-Agent wins
  for (const name in input.extra) {
    const lower = name.toLowerCase();
    if (lower === 'user-agent') userAgent = undefined;
    if (!OWN_HEADERS.has(lower)) headers[name] = input.extra[name] as string;
  }
  if (userAgent) headers['User-Agent'] = userAgent;
  Object.assign(headers, input.own);
  headers['Ocp-Apim-Subscription-Key'] = input.subscriptionKey.reveal();
  const routing = op.routing ?? 'environment';
  if (routing === 'environment') headers['X-Target-Environment'] = input.targetEnvironment;
  if (routing === 'institution') {
    headers['X-Account-Holding-Institution-Identifier'] = input.institution;
  }
  if (input.referenceId) {
    headers[op.creates === 'correlation' ? 'X-CorrelationID' : 'X-Reference-Id'] =
      input.referenceId;
  }
  if (input.callbackUrl) headers['X-Callback-Url'] = input.callbackUrl;
  if (input.contentType) headers['Content-Type'] = input.contentType;
  return headers;
}
