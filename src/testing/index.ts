/**
 * `momo-partner-sdk/testing`: a stateful, in-memory fake of the Mobile-Money Partner API,
 * served three ways: msw handlers, a fetch function, and a real HTTP server on loopback.
 * See docs/simulator.md.
 */
import { MomoClient, type MomoClientOptions, ValidationError } from 'momo-partner-sdk';
import { createEngine } from './engine';
import { createFetch } from './fetch';
import { limitsProblem } from './limits';
import { createHandlers, type SimulatorHandlers } from './msw';
import { serveEngine } from './serve';
import type { ListeningServer, ListenOptions, SimulatorOptions, SimulatorState } from './types';

export type { Clock, SimulatorClock } from './clock';
export {
  assertConforms,
  type BatchStoreConformanceOptions,
  batchStoreCases,
  type ConformanceCase,
  ConformanceError,
  type ConformanceOptions,
  type ConformanceReport,
  checkBatchStore,
  checkJournal,
  checkOutboxStore,
  checkSubscriptionStore,
  checkTokenStore,
  type JournalConformanceOptions,
  journalCases,
  type OutboxStoreUnderTest,
  outboxStoreCases,
  type SubscriptionStoreConformanceOptions,
  subscriptionStoreCases,
  type TokenStoreConformanceOptions,
  tokenStoreCases,
} from './conformance/index';
export type { SimulatorHandlers } from './msw';
export type {
  ConsentGrant,
  ConsentRequestInfo,
  Decision,
  DeliveryNotification,
  Fault,
  ListeningServer,
  ListenOptions,
  Operation,
  Party,
  RateLimitedKind,
  Reason,
  RecordedRequest,
  SentCallback,
  SimCredentials,
  SimTransaction,
  SimulatorLimits,
  SimulatorOptions,
  SimulatorState,
  TransactionKind,
  TransactionStatus,
} from './types';

export interface Simulator extends SimulatorState {
  /**
   * msw request handlers: one `http.all` on `${baseUrl}/*`. msw is loaded on the first
   * read (an optional peer dependency: `sim.fetch` and `sim.listen` do without it).
   * Typed without msw's types (see {@link SimulatorHandlers}): spread them into
   * `setupServer(...)` or `server.use(...)`.
   */
  readonly handlers: SimulatorHandlers;
  /** A fetch function served in memory, without network (matches any origin). */
  readonly fetch: typeof fetch;
  /**
   * Serves the simulator over node:http, on 127.0.0.1 by default (port 0 = any free port),
   * with the `/_simulator/` control routes and the payer's phone page (docs/simulator.md).
   */
  listen(options?: ListenOptions): Promise<ListeningServer>;
  /** A MomoClient wired to `sim.fetch`, with fast polling. */
  client(overrides?: Partial<MomoClientOptions>): MomoClient;
}

/** A new simulator: an in-memory fake of the service, with its own state, served by `handlers`, `fetch` or `listen()`. */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const problem = limitsProblem(options.limits);
  if (problem) throw new ValidationError([{ path: problem.field, message: problem.message }]);
  const engine = createEngine(options);
  const { baseUrl, targetEnvironment, subscriptionKey, apiUser } = engine.credentials;
  const simulatorFetch = createFetch(engine.handle, baseUrl);
  let handlers: SimulatorHandlers | undefined;
  return {
    get handlers() {
      handlers ??= createHandlers(engine.handle, baseUrl);
      return handlers;
    },
    fetch: simulatorFetch,
    listen: (listenOptions) => serveEngine(engine, listenOptions),
    client: (overrides = {}) => {
      return new MomoClient({
        baseUrl,
        targetEnvironment,
        subscriptionKey,
        apiUser: { id: apiUser.id, key: apiUser.key },
        polling: { initialDelayMs: 20, maxDelayMs: 200, timeoutMs: 30_000 },
        fetch: simulatorFetch,
        simulatorTags: true, // a batch's rows show on the page (docs/simulator.md)
        ...overrides,
      });
    },
    credentials: engine.credentials,
    partner: (name) => engine.partner(name),
    clock: engine.clock,
    get transactions() {
      return engine.transactions;
    },
    transaction: (referenceId) => engine.transaction(referenceId),
    get callbacks() {
      return engine.callbacks;
    },
    get requests() {
      return engine.requests;
    },
    settle: (referenceId, status, reason) => engine.settle(referenceId, status, reason),
    decide: (referenceId, decision) => engine.decide(referenceId, decision),
    grantConsent: (consent) => engine.grantConsent(consent),
    get deliveryNotifications() {
      return engine.deliveryNotifications;
    },
    get consentRequests() {
      return engine.consentRequests;
    },
    approveConsent: (authReqId) => engine.approveConsent(authReqId),
    denyConsent: (authReqId) => engine.denyConsent(authReqId),
    inject: (fault) => engine.inject(fault),
    revokeTokens: () => engine.revokeTokens(),
    reset: () => engine.reset(),
  };
}
