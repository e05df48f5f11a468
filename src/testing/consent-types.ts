/** The consent and notification shapes of the simulator's state (re-exported by types.ts). */

/** A delivery notification the simulator accepted (200). */
export interface DeliveryNotification {
  readonly referenceId: string;
  readonly message: string;
  readonly language?: string;
}

/**
 * A consent request (bc-authorize). `approved` once the account holder approved (by the
 * MSISDN rule on a poll, or `approveConsent()`); `tokenIssued` once a token was handed out.
 */
export interface ConsentRequestInfo {
  readonly authReqId: string;
  readonly msisdn: string;
  readonly scope: string;
  readonly accessType: 'online' | 'offline';
  readonly status: 'pending' | 'approved' | 'denied' | 'expired';
  readonly tokenIssued: boolean;
  /** Token requests received for this auth_req_id, all answers counted. */
  readonly polls: number;
  /** Current polling interval in seconds (grows by 5 with each slow_down). */
  readonly interval: number;
  /** Epoch milliseconds when the auth_req_id expires. */
  readonly expiresAt: number;
  readonly callbackUrl?: string;
}

/** A consent token issued by `sim.grantConsent()`. */
export interface ConsentGrant {
  accessToken: string;
  expiresIn: number;
}
