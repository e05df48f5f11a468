import * as z from 'zod/mini';
import { type ConsentRequest, consentError, consentRequest } from '../auth/consent-request';
import { ConsentToken } from '../auth/consent-token';
import type { MomoClientOptions, ProductName, RequestOptions } from '../core/options';
import { checkCallbackUrl } from '../core/url';
import { ValidationError } from '../errors';
import { inspectSymbol } from '../inspect';
import { type AuthorizeInput, authorizeInput, type consentTokenResponse } from '../schemas/consent';
import { lazy, type Output } from '../schemas/lazy';
import { validateInput } from '../schemas/validate';
import { sharedContext } from './client-context';
import type { ProductApi } from './product-api';
import { consentOperationsOf } from './tables/consent';

/** The consent (CIBA) flow: ask the account holder, then collect their consent token. */
export class Consent {
  readonly #api: ProductApi;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#api = sharedContext(options, context).api;
  }

  /**
   * POST /collectionwithnewcapabilities/v1_0/bc-authorize (form, Bearer); with
   * `product`, that product's POST /{product}/v1_0/bc-authorize (its credentials), and
   * the request's `wait()` collects the token from the same product.
   */
  async authorize(
    input: AuthorizeInput & { product?: ProductName | undefined },
    options?: RequestOptions,
  ): Promise<ConsentRequest> {
    const { product, ...fields } = (input ?? {}) as AuthorizeInput & { product?: unknown };
    const name = consentOperationsOf(undefined).authorize.name;
    const productChosen = validateInput(consentProduct, product, 'product', name);
    const op = consentOperationsOf(productChosen);
    const checked = validateInput(authorizeInput, fields, '', op.authorize.name);
    const callbackUrl = checked.callbackUrl ?? options?.callbackUrl;
    const config = this.#api.context.config;
    const problem = callbackUrl === undefined ? undefined : checkCallbackUrl(callbackUrl, config);
    if (problem) {
      throw new ValidationError([{ path: 'callbackUrl', message: problem }], {
        operation: op.authorize.name,
      });
    }
    const { callbackUrl: _, ...rest } = options ?? {};
    const data = await this.#api.send(op.authorize, {
      body: {
        login_hint: `ID:${checked.msisdn}/MSISDN`,
        scope: checked.scope,
        access_type: checked.accessType,
        ...(checked.consentValidIn === undefined
          ? {}
          : { consent_valid_in: checked.consentValidIn }),
      },
      options: rest,
      // Only an explicit URL: the client's default is a transaction callback template.
      ...(callbackUrl ? { headers: { 'X-Callback-Url': callbackUrl } } : {}),
    });
    return consentRequest({
      authReqId: data.auth_req_id,
      interval: data.interval,
      expiresIn: data.expires_in,
      defaultExpiresIn: this.#api.context.config.polling.timeoutMs / 1000,
      receivedAt: Date.now(),
      getToken: (signal) =>
        this.getToken(data.auth_req_id, {
          ...(signal ? { signal } : {}),
          ...(productChosen ? { product: productChosen } : {}),
        }),
      sleep: (ms, signal) => this.#api.context.poller.sleep(ms, signal),
    });
  }

  /**
   * POST /collection/oauth2/token/ (form, Basic); with `product`, POST
   * /{product}/oauth2/token/. One poll: `access_denied` and `expired_token` throw
   * ConsentDeniedError / ConsentExpiredError; `authorization_pending` and `slow_down`
   * throw BadRequestError with that `.code`.
   */
  async getToken(
    authReqId: string,
    options?: RequestOptions & { product?: ProductName | undefined },
  ): Promise<ConsentToken> {
    const issuedAt = Date.now();
    const { product, ...rest } = options ?? {};
    const name = consentOperationsOf(undefined).getToken.name;
    const op = consentOperationsOf(validateInput(consentProduct, product, 'options.product', name));
    let data: Output<typeof consentTokenResponse>;
    try {
      data = await this.#api.send(op.getToken, {
        body: { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId },
        options: options === undefined ? undefined : rest,
      });
    } catch (error) {
      throw consentError(error, authReqId);
    }
    for (const secret of [data.access_token, data.refresh_token]) {
      if (secret) this.#api.context.config.scrubber.add(secret);
    }
    return new ConsentToken({
      accessToken: data.access_token,
      tokenType: data.token_type,
      expiresIn: data.expires_in,
      scope: data.scope,
      refreshToken: data.refresh_token,
      refreshTokenExpiresIn: data.refresh_token_expired_in,
      issuedAt,
    });
  }

  [inspectSymbol](): string {
    return 'Consent';
  }
}

/** Which product's consent endpoints and credentials (none: the specification's). */
const consentProduct = lazy(() => z.optional(z.enum(['disbursement', 'collection', 'remittance'])));

export type { ConsentRequest };
