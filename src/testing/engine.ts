import { SIMULATOR_HEADER } from '../core/simulator-tag';
import { sleep } from '../core/time';
import { withoutTrailingSlashes } from '../core/url';
import { ApiUserStore } from './api-users';
import { deliveryRefusal } from './callback-hosts';
import { CallbackSender } from './callbacks';
import { OffsetClock } from './clock';
import { ConsentStore } from './consent';
import { FaultQueue } from './faults';
import { authenticate, checkSubscriptionKey, checkTargetEnvironment } from './guards';
import {
  type CoreHandler,
  codeError,
  DROP,
  type Drop,
  faultResponse,
  json,
  Rejection,
} from './http';
import { Ledger, toPublic } from './ledger';
import { limitedKind, RateLimiter } from './limits';
import { DeliveryLog } from './notifications';
import { type ResolvedOptions, resolveOptions } from './options';
import { reason as reasonFor } from './outcomes';
import { type RouteContext, Router } from './router';
import { collectionRoutes } from './routes/collection';
import { consentRoutes } from './routes/consent';
import { disbursementRoutes } from './routes/disbursement';
import { invoiceRoutes } from './routes/invoices';
import { paymentRoutes } from './routes/payments';
import { preApprovalRoutes } from './routes/preapprovals';
import { remittanceRoutes } from './routes/remittance';
import { sandboxRoutes } from './routes/sandbox';
import { standardRoutes } from './routes/standard';
import { voucherRoutes } from './routes/vouchers';
import { TokenStore } from './tokens';
import type { RecordedRequest, SimCredentials, SimulatorOptions, SimulatorState } from './types';
import { isMsisdn } from './validation';

/** Every route the simulator serves. */
const ROUTES = [
  ...disbursementRoutes,
  ...collectionRoutes,
  ...preApprovalRoutes,
  ...invoiceRoutes,
  ...paymentRoutes,
  ...voucherRoutes,
  ...standardRoutes,
  ...consentRoutes,
  ...remittanceRoutes,
  ...sandboxRoutes,
];

/**
 * The framework-free simulator: state plus `handle(Request)`. The msw, fetch and
 * node:http adapters, and the CLI, are thin layers over it.
 */
export interface Engine extends SimulatorState {
  readonly handle: CoreHandler;
  /** The stores behind the state, read and steered by the payer's phone page (page/). */
  readonly internals: EngineInternals;
}

export interface EngineInternals {
  readonly options: ResolvedOptions;
  readonly ledger: Ledger;
  readonly callbacks: CallbackSender;
  readonly faults: FaultQueue;
  readonly apiUsers: ApiUserStore;
  readonly limiter: RateLimiter;
}

/** A recorded request while it is handled: `limited` is set when a cap refuses it. */
type Recording = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

export function createEngine(simulatorOptions: SimulatorOptions = {}): Engine {
  const options = resolveOptions(simulatorOptions);
  const clock = new OffsetClock(simulatorOptions.clock);
  const router = new Router(ROUTES);
  // Kept by reset(), like issued tokens: a provisioned user stays a valid credential.
  const apiUsers = new ApiUserStore();
  const callbacks = new CallbackSender(options.callbackFetch, (url, createdBy) =>
    deliveryRefusal(url, createdBy, options, apiUsers),
  );
  const ledger = new Ledger(
    options.settleMs,
    options.initialBalance,
    (tx) => callbacks.send(tx),
    clock,
  );
  clock.onAdvance((now) => ledger.settleDue(now));
  const tokens = new TokenStore(options.tokenTtlSeconds);
  const faults = new FaultQueue();
  const consents = new ConsentStore(
    options.consentIntervalSeconds,
    options.consentExpiresInSeconds,
    () => clock.now(),
  );
  const deliveries = new DeliveryLog();
  const limiter = new RateLimiter();
  let requests: RecordedRequest[] = [];
  const basePath = withoutTrailingSlashes(new URL(options.baseUrl).pathname);

  async function handle(request: Request): Promise<Response | Drop> {
    const url = new URL(request.url);
    const path = stripBasePath(url.pathname, basePath);
    const method = request.method.toUpperCase();
    const at = Date.now();
    const text = await request.text().catch(() => '');
    const recording: Recording = {
      method,
      path: `${path}${url.search}`,
      headers: Object.fromEntries(request.headers),
      body: recordedBody(text),
      at,
    };
    requests.push(recording);
    const fault = faults.take(method, path);
    if (fault?.kind === 'drop-before-processing') return DROP;
    if (fault?.kind === 'status') return faultResponse(fault.status, fault.body, fault.headers);
    const response = await respond(request, method, path, text, recording);
    response.headers.set(SIMULATOR_HEADER, '1'); // says what it is; no client infers anything from it
    if (fault?.kind === 'delay') await sleep(fault.ms);
    return fault?.kind === 'drop-after-processing' ? DROP : response;
  }

  async function respond(
    request: Request,
    method: string,
    path: string,
    text: string,
    recording: Recording,
  ): Promise<Response> {
    const now = clock.now();
    ledger.settleDue(now);
    const match = router.match(method, path);
    if (match.kind === 'not-found') {
      return codeError(404, 'NOT_FOUND', `No such endpoint: ${method} ${path}`);
    }
    if (match.kind === 'method-not-allowed') {
      return json(
        405,
        { code: 'NOT_ALLOWED', message: `Method ${method} is not allowed on ${path}.` },
        { allow: match.allow.join(', ') },
      );
    }
    const { route, params } = match;
    try {
      const partner = checkSubscriptionKey(request.headers, options);
      // The provider's gateway counts a subscription's calls before they reach the API.
      const kind = limitedKind(method, request.headers);
      const subscription = request.headers.get('ocp-apim-subscription-key') ?? '';
      const standard = route.path.includes('/mm/');
      const refused = kind && limiter.admit(subscription, kind, now, standard, partner.limits);
      if (kind && refused) {
        recording.limited = kind;
        return refused;
      }
      const { auth, product } = route;
      const token = authenticate(request.headers, auth, product, partner, tokens, now, apiUsers);
      checkTargetEnvironment(request.headers, route.targetEnvironment, options);
      const ctx: RouteContext = {
        request,
        headers: request.headers,
        params,
        product: route.product,
        text,
        token,
        now,
        clock,
        options,
        ledger,
        tokens,
        consents,
        deliveries,
        apiUsers,
        partner,
      };
      return await route.handle(ctx);
    } catch (error) {
      if (error instanceof Rejection) return error.response;
      return codeError(500, 'INTERNAL_PROCESSING_ERROR', 'The simulator failed unexpectedly.');
    }
  }

  return {
    handle,
    internals: { options, ledger, callbacks, faults, apiUsers, limiter },
    credentials: credentialsOf(options),
    partner(name) {
      const partner = options.partners.byName(name);
      if (partner === undefined) throw new TypeError(`partner: no partner named ${name}`);
      return Object.freeze({
        subscriptionKey: partner.subscriptionKeys[0] as string,
        apiUser: Object.freeze({ ...(partner.apiUsers[0] as { id: string; key: string }) }),
        targetEnvironment: options.targetEnvironment,
        baseUrl: options.baseUrl,
      });
    },
    clock,
    get transactions() {
      const now = clock.now();
      ledger.settleDue(now);
      return ledger.all().map((tx) => toPublic(tx, now));
    },
    transaction(referenceId) {
      const now = clock.now();
      ledger.settleDue(now);
      const tx = ledger.get(referenceId);
      return tx ? toPublic(tx, now) : undefined;
    },
    get callbacks() {
      return callbacks.sent;
    },
    get requests() {
      return [...requests];
    },
    settle(referenceId, status, reason) {
      ledger.settleDue(clock.now());
      ledger.force(referenceId, status, reason);
    },
    decide(referenceId, decision) {
      if (decision !== 'approve' && decision !== 'decline') {
        throw new TypeError("decide: the decision must be 'approve' or 'decline'");
      }
      ledger.settleDue(clock.now());
      if (ledger.has(referenceId)) {
        if (decision === 'approve') ledger.force(referenceId, 'SUCCESSFUL', undefined, 'decide');
        else ledger.force(referenceId, 'FAILED', reasonFor('APPROVAL_REJECTED'), 'decide');
      } else if (consents.has(referenceId)) {
        if (decision === 'approve') consents.approve(referenceId);
        else consents.deny(referenceId);
      } else {
        throw new Error(`decide: no transaction or consent request ${referenceId}`);
      }
    },
    grantConsent({ msisdn, scope = 'openid' }) {
      if (!isMsisdn(msisdn)) throw new TypeError('grantConsent: msisdn must be an E.164 MSISDN');
      const { token, expiresIn } = tokens.issueConsent(msisdn, scope, clock.now());
      return { accessToken: token, expiresIn };
    },
    get deliveryNotifications() {
      return deliveries.all;
    },
    get consentRequests() {
      return consents.snapshot(clock.now());
    },
    approveConsent(authReqId) {
      consents.approve(authReqId);
    },
    denyConsent(authReqId) {
      consents.deny(authReqId);
    },
    inject(fault) {
      faults.inject(fault);
    },
    revokeTokens() {
      tokens.revokeAccess();
    },
    reset() {
      ledger.reset();
      callbacks.reset();
      faults.reset();
      consents.reset();
      deliveries.reset();
      limiter.reset();
      requests = [];
    },
  };
}

function credentialsOf(options: ResolvedOptions): SimCredentials {
  return Object.freeze({
    subscriptionKey: options.subscriptionKey,
    apiUser: Object.freeze({ ...options.apiUser }),
    targetEnvironment: options.targetEnvironment,
    baseUrl: options.baseUrl,
  });
}

function stripBasePath(pathname: string, basePath: string): string {
  if (basePath === '' || !pathname.startsWith(`${basePath}/`)) return pathname;
  return pathname.slice(basePath.length);
}

function recordedBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
