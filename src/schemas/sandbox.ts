import * as z from 'zod/mini';
import { lazy } from './lazy';

/**
 * A bare host name, as the provisioning API wants it: `partner.example`, not
 * `https://partner.example/callbacks`. Labels of letters, digits and hyphens.
 */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const providerCallbackHost = lazy(() =>
  z.string().check(
    z.minLength(1, { error: 'is required', abort: true }),
    z.refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v), {
      error: 'must be a host name without a scheme, e.g. partner.example (not https://...)',
      abort: true,
    }),
    z.refine((v) => !/[/?#]/.test(v), {
      error: 'must be a host name without a path, e.g. partner.example',
      abort: true,
    }),
    z.regex(HOST_NAME, { error: 'must be a host name such as partner.example' }),
  ),
);

/** Body of POST /v1_0/apiuser. */
export const createUserBody = lazy(() =>
  z.strictObject({ providerCallbackHost: providerCallbackHost() }),
);
/** What `createUser` and `provision` take (a type test checks it against the schema). */
export interface SandboxUserInput {
  /** The host your callbacks go to, e.g. `partner.example`. */
  providerCallbackHost: string;
}

/** Answer of POST /v1_0/apiuser/{id}/apikey. */
export const apiKeyResult = lazy(() =>
  z.object({
    apiKey: z.string().check(z.minLength(1, { error: 'must be a non-empty string' })),
  }),
);

/**
 * Answer of GET /v1_0/apiuser/{id}. The provider's document types `targetEnvironment`
 * as an object; the service sends a string such as `sandbox`, which is what we read.
 * Other fields (the document's `paymentServerUrl`) are dropped: nothing uses them.
 */
export const apiUserResult = lazy(() =>
  z.object({ providerCallbackHost: z.string(), targetEnvironment: z.string() }),
);
/** What `getUser` answers (a type test checks it against the schema). */
export interface SandboxUser {
  providerCallbackHost: string;
  targetEnvironment: string;
}
