import type { Clock, SimulatorClock } from './clock';
import type { ConsentGrant, ConsentRequestInfo, DeliveryNotification } from './consent-types';
/** Public types of the simulator (`momo-partner-sdk/testing`). */

export type Product = 'disbursement' | 'collection' | 'remittance';

/** Every kind of transaction the simulator stores. */
export type Operation =
  | 'disbursement.transfer'
  | 'disbursement.deposit'
  | 'disbursement.refund'
  | 'disbursement.transferWithConsent'
  | 'disbursement.merchantPaymentWithConsent'
  | 'collection.requestToPay'
  | 'collection.requestToWithdraw'
  | 'collection.redeemVoucher'
  | 'collection.standardDisbursement'
  | 'remittance.transfer'
  | 'remittance.cashTransfer'
  | 'disbursement.depositV2'
  | 'disbursement.refundV2'
  | 'collection.requestToWithdrawV1'
  | 'collection.preApproval'
  | 'collection.createInvoice'
  | 'collection.cancelInvoice'
  | 'collection.createPayment';

/**
 * What a transaction is, whatever its version or product: what a payer's phone would show
 * (`transfer` covers the disbursement and remittance transfers and the consent transfer).
 */
export type TransactionKind =
  | 'transfer'
  | 'deposit'
  | 'refund'
  | 'merchantPayment'
  | 'requestToPay'
  | 'requestToWithdraw'
  | 'voucherRedemption'
  | 'standardDisbursement'
  | 'cashTransfer'
  | 'preApproval'
  | 'invoice'
  | 'invoiceCancellation'
  | 'payment';

/** What an account holder (or `sim.decide()`) does with a pending transaction or consent. */
export type Decision = 'approve' | 'decline';

/** The status of a simulated transaction. */
export type TransactionStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

/** Why a simulated transaction FAILED: a code of the service's error table and a message. */
export interface Reason {
  code: string;
  message: string;
}

/** A payer or payee as the simulator reads it. */
export interface Party {
  partyIdType: 'MSISDN' | 'EMAIL' | 'PARTY_CODE';
  partyId: string;
}

/** Options of `createSimulator(options)`; every one has a default. */
export interface SimulatorOptions {
  /** Where `sim.clock` starts from: any `{ now() }` in epoch ms. Default the system clock. */
  clock?: Clock;
  /** What `.handlers` match and `.client()` uses. Default `https://sandbox.momo.test`. */
  baseUrl?: string;
  /** Expected `Ocp-Apim-Subscription-Key`. Default `sim-subscription-key`. */
  subscriptionKey?: string;
  /** The one API user the token endpoints accept. Default a fixed UUID v4 + `sim-api-key`. */
  apiUser?: { id: string; key: string };
  /** Expected `X-Target-Environment`. Default `sandbox`. */
  targetEnvironment?: string;
  /** Time from acceptance to the final status. Default 100. */
  settleMs?: number;
  /** Validity of access and consent tokens. Default 3600. */
  tokenTtlSeconds?: number;
  /** The only currency accepted. Default `EUR`. */
  currency?: string;
  /** Opening balance of each product's account. Default `1000000.00`. */
  initialBalance?: string;
  /**
   * Sends the callbacks; default `globalThis.fetch`, looked up at send time. A function given
   * here gets every callback, whatever its host: the host rule (`callbackHosts`) guards only
   * what the simulator sends over the network itself.
   */
  callbackFetch?: typeof fetch;
  /**
   * The configured API user's `providerCallbackHost`, as the sandbox's provisioning would
   * hold it (a bare host name). Default none. Its callbacks may go there; see
   * `enforceCallbackHost`.
   */
  providerCallbackHost?: string;
  /**
   * Refuse a creating call whose X-Callback-Url host is not the calling API user's
   * `providerCallbackHost` (400 `INVALID_CALLBACK_URL_HOST`), as the provider's sandbox
   * does. Default false: any http(s) URL is accepted.
   */
  enforceCallbackHost?: boolean;
  /**
   * Hosts the simulator may call back besides loopback (`localhost`, `127.0.0.0/8`,
   * `[::1]`) and the calling API user's `providerCallbackHost`; `['*']` allows any. A
   * callback to another host is not sent, only recorded with an `error`. Default none.
   */
  callbackHosts?: readonly string[];
  /** How long after a request to pay became final a delivery notification is allowed. Default 24 h. */
  deliveryNotificationWindowMs?: number;
  /** `interval` answered by bc-authorize (seconds between consent-token polls). Default 1. */
  consentIntervalSeconds?: number;
  /** `expires_in` answered by bc-authorize (lifetime of an auth_req_id). Default 120. */
  consentExpiresInSeconds?: number;
  /**
   * The provider's caps, counted per subscription key in any sliding second: beyond them
   * a request gets 429 with `Retry-After` (seconds) and is not processed. Default none.
   */
  limits?: SimulatorLimits;
  /**
   * Further partners besides the one the options above describe (named `default`): each
   * with its subscription keys, API users, caps and transactions. A token or API user of
   * one partner sent with another's key gets 401 `{error}`; one partner's transaction is
   * not found with another's credentials; `sim.transactions` and the payer's page show
   * each transaction's `partner`. Default none (one partner, as before).
   */
  partners?: readonly SimulatorPartner[];
}

/** A partner of `createSimulator({ partners })`. */
export interface SimulatorPartner {
  /** Shown on the payer's page and as `partner` in `sim.transactions`. */
  name: string;
  /** Its subscription key, or several valid at once (a key being rotated). */
  subscriptionKey: string | readonly string[];
  /** The API users its token endpoints accept (only with its own keys). */
  apiUsers: readonly { id: string; key: string }[];
  /** Its caps, per subscription key. Default the simulator's `limits`. */
  limits?: SimulatorLimits;
}

/**
 * Caps of `createSimulator({ limits })`, each a positive integer; an absent one is no cap.
 * Lookups: every GET of the API. Creating calls: every other request carrying
 * `X-Reference-Id`. The simulator's own `/_simulator/` routes are never counted.
 */
export interface SimulatorLimits {
  /** GETs (status lookups, balances, account-holder checks, user info...) per second. */
  lookupsPerSecond?: number;
  /** Requests other than GET carrying `X-Reference-Id` (the creating calls) per second. */
  createsPerSecond?: number;
}

/** Which cap of `limits` refused a request. */
export type RateLimitedKind = 'lookups' | 'creates';

/** The simulator's fixed test credentials: spread them into `new MomoClient({ ...sim.credentials })`. */
export interface SimCredentials {
  readonly subscriptionKey: string;
  readonly apiUser: { readonly id: string; readonly key: string };
  readonly targetEnvironment: string;
  readonly baseUrl: string;
}

/** A transaction the simulator stored, as `sim.transactions` shows it. */
export interface SimTransaction {
  readonly referenceId: string;
  readonly operation: Operation;
  readonly kind: TransactionKind;
  /** Who pays and who receives, where the request names them. */
  readonly payer?: Party;
  readonly payee?: Party;
  /** Absent for a pre-approval (it moves no money) and an invoice cancellation. */
  readonly amount?: string;
  readonly currency?: string;
  readonly status: TransactionStatus;
  readonly reason?: Reason;
  /** The request body as received (parsed JSON). */
  readonly body: unknown;
  /**
   * The client's caller tag (a batch's `<batch id>/<item key>`), sent by `sim.client()`
   * and the CLI to the simulator only (X-Momo-Simulator-Tag; docs/simulator.md).
   */
  readonly tag?: string;
  readonly callbackUrl?: string;
  /** `Date.now()` at acceptance. */
  readonly createdAt: number;
  /** When it becomes final by itself; absent when it stays PENDING until `settle()`. */
  readonly settlesAt?: number;
  /** `Date.now()` when it became final. */
  readonly finalizedAt?: number;
  /** Assigned at acceptance; shown in results only once SUCCESSFUL. */
  readonly financialTransactionId: string;
  /** A pre-approval once approved: its id (for the listing and cancel) and its state now. */
  readonly preApproval?: {
    readonly preApprovalId: string;
    readonly state: 'APPROVED' | 'EXPIRED' | 'CANCELLED';
    /** Epoch milliseconds; absent when the request gave no `validityTime`. */
    readonly expiresAt?: number;
  };
  /**
   * A request to pay made under an active pre-approval of the same partner and payer: that
   * pre-approval's `preApprovalId` (docs/simulator.md, "Subscriptions on the page").
   */
  readonly underPreApproval?: string;
  /** The partner whose credentials created it, when the simulator has several (`partners`). */
  readonly partner?: string;
}

/** A callback the simulator sent, as `sim.callbacks` shows it. */
export interface SentCallback {
  readonly url: string;
  readonly method: 'POST' | 'PUT';
  readonly body: unknown;
  /** HTTP status of the receiver's answer, once it has answered. */
  readonly status?: number;
  /** Why delivery failed (network error), if it did. */
  readonly error?: string;
}

/** A request the simulator received, as `sim.requests` shows it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query string, as received. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON, else the raw text; undefined when the body was empty. */
  readonly body: unknown;
  /** `Date.now()` when it was received (epoch milliseconds). */
  readonly at: number;
  /** Set when a cap of `limits` refused it (429, nothing processed): which one. */
  readonly limited?: RateLimitedKind;
}

/** A one-shot fault for `sim.inject()`: lost connections, an error status, a delay. */
export type Fault = {
  /** `'POST /disbursement/v1_0/deposit'` (method + path prefix) or a path prefix; default any. */
  match?: string;
  /** How many matching requests it hits. Default 1. */
  times?: number;
} & (
  | { kind: 'drop-after-processing' }
  | { kind: 'drop-before-processing' }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Processed at once (a creating call is stored); the answer is held back `ms`. */
  | { kind: 'delay'; ms: number }
);

export type { ConsentGrant, ConsentRequestInfo, DeliveryNotification } from './consent-types';
export type { ListeningServer, ListenOptions } from './server-types';

/** The simulator's state and controls, shared by `createSimulator()` and the CLI's core. */
export interface SimulatorState {
  /** What a client needs: subscription key, API user, target environment, base URL. */
  readonly credentials: SimCredentials;
  /**
   * The credentials of a partner of `createSimulator({ partners })` (its first key and
   * first API user; `default`: `credentials`). An unknown name throws.
   */
  partner(name: string): SimCredentials;
  /** The simulator's time: `now()`, and `advance(ms)` to move it on (docs/simulator.md). */
  readonly clock: SimulatorClock;
  /** Snapshot of every stored transaction, in acceptance order (due ones settled first). */
  readonly transactions: readonly SimTransaction[];
  /** The transaction stored under this reference id, or undefined. */
  transaction(referenceId: string): SimTransaction | undefined;
  /** Every callback sent, in order; `status` / `error` fill in when delivery ends. */
  readonly callbacks: readonly SentCallback[];
  /** Every request received, in order, faulted ones included. */
  readonly requests: readonly RecordedRequest[];
  /** Forces the outcome of a PENDING transaction now (and sends its callback). */
  settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED', reason?: Reason): void;
  /**
   * The account holder decides a pending transaction (approve: SUCCESSFUL, for an invoice
   * paid, for a pre-approval approved; decline: FAILED with `APPROVAL_REJECTED`) or a
   * pending consent request (by its auth_req_id: approve or deny). Throws for an unknown
   * id or one that is no longer pending.
   */
  decide(referenceId: string, decision: Decision): void;
  /** A consent token that the oauth2 endpoints accept, for this account holder. */
  grantConsent(options: { msisdn: string; scope?: string }): ConsentGrant;
  /** Every accepted delivery notification, in order. */
  readonly deliveryNotifications: readonly DeliveryNotification[];
  /** Snapshot of every consent request (bc-authorize), in order. */
  readonly consentRequests: readonly ConsentRequestInfo[];
  /** The account holder approves: the next on-time token poll gets the token. */
  approveConsent(authReqId: string): void;
  /** The account holder denies: token polls answer access_denied. */
  denyConsent(authReqId: string): void;
  /** Arms a one-shot fault; faults are consumed in order by the requests they match. */
  inject(fault: Fault): void;
  /** Revokes every access token issued so far: calls with them get 401 (as after a key rotation). */
  revokeTokens(): void;
  /**
   * Forgets transactions, callbacks, requests, faults, delivery notifications and consent
   * requests; restores the balances. Issued tokens stay valid.
   */
  reset(): void;
}
