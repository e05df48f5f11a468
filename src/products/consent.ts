import { type ConsentRequest, consentError, consentRequest } from '../auth/consent-request';
import { ConsentToken } from '../auth/consent-token';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import { checkCallbackUrl } from '../core/url';
import { ValidationError } from '../errors';
import {
  type AuthorizeInput,
  authorizeForm,
  authorizeInput,
  consentRequestResponse,
  consentTokenForm,
  consentTokenResponse,
} from '../schemas/consent';
import { validateInput } from '../schemas/validate';
import { endpoint } from './endpoints';
import { ProductApi } from './product-api';

/** Both consent endpoints are Collection's (DESIGN 3: `...withnewcapabilities` → base product). */
const product = 'collection';

const op = {
  authorize: endpoint(
    product,
    'consent.authorize',
    'POST /collectionwithnewcapabilities/v1_0/bc-authorize',
    { body: authorizeForm, result: consentRequestResponse },
    { encoding: 'form' },
  ), // 4.21
  getToken: endpoint(
    product,
    'consent.getToken',
    'POST /collection/oauth2/token/',
    { body: consentTokenForm, result: consentTokenResponse },
    { auth: 'basic', encoding: 'form' },
  ), // 4.9
};

/** The consent (CIBA) flow: ask the account holder, then collect their consent token. */
export class Consent {
  readonly #api: ProductApi;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#api = ProductApi.of(options, context);
  }

  /** POST /collectionwithnewcapabilities/v1_0/bc-authorize (form, Bearer). */
  async authorize(input: AuthorizeInput, options?: RequestOptions): Promise<ConsentRequest> {
    const checked = validateInput(authorizeInput, input, '', op.authorize.name);
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
      getToken: (signal) => this.getToken(data.auth_req_id, signal ? { signal } : {}),
      sleep: (ms, signal) => this.#api.context.poller.sleep(ms, signal),
    });
  }

  /**
   * POST /collection/oauth2/token/ (form, Basic). One poll: `access_denied` and
   * `expired_token` throw ConsentDeniedError / ConsentExpiredError;
   * `authorization_pending` and `slow_down` throw BadRequestError with that `.code`.
   */
  async getToken(authReqId: string, options?: RequestOptions): Promise<ConsentToken> {
    const issuedAt = Date.now();
    let data: typeof consentTokenResponse._zod.output;
    try {
      data = await this.#api.send(op.getToken, {
        body: { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: authReqId },
        options,
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

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Consent';
  }
}

export type { ConsentRequest };
