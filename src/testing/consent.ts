import { v4 as uuidv4 } from 'uuid';
import { magicSuffix } from './outcomes';
import type { ConsentRequestInfo } from './types';

type AccessType = 'online' | 'offline';

/** What the account holder does, by login_hint MSISDN (without `+`). Default: approve. */
type ConsentRule = 'deny' | 'expire' | 'never' | 'slow';

/** Magic MSISDNs of the consent flow by their last six digits, as the transaction table. */
const CONSENT_MAGIC: Readonly<Record<string, ConsentRule>> = {
  '123451': 'deny', // access_denied on the first poll
  '123452': 'expire', // expired_token on the first poll
  '123453': 'never', // authorization_pending until expiry
  '123454': 'slow', // slow_down on the first poll, approved on the next on-time one
};

/** RFC CIBA 7.3: each slow_down adds 5 seconds to the polling interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
/**
 * How early a poll may arrive and still count as on time: a client that waits `interval`
 * from sending its previous poll sees its requests arrive a few ms closer together over
 * real HTTP. 100 ms, or a tenth of the interval when that is less.
 */
const GRACE_MS = 100;

function tooEarly(previous: number | undefined, now: number, intervalSeconds: number): boolean {
  if (previous === undefined) return false;
  const intervalMs = intervalSeconds * 1000;
  return now - previous < intervalMs - Math.min(GRACE_MS, intervalMs / 10);
}

interface ConsentRecord {
  readonly authReqId: string;
  readonly msisdn: string;
  readonly scope: string;
  readonly accessType: AccessType;
  readonly consentValidIn: number | undefined;
  readonly callbackUrl: string | undefined;
  readonly expiresAt: number;
  interval: number;
  lastPollAt: number | undefined;
  polls: number;
  onTimePolls: number;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  /** Set by approveConsent / denyConsent: the MSISDN rule no longer applies. */
  overridden: boolean;
  tokenIssued: boolean;
}

export interface NewConsent {
  msisdn: string;
  scope: string;
  accessType: AccessType;
  consentValidIn: number | undefined;
  callbackUrl: string | undefined;
}

/** The answer to one token poll: a grant to issue, or a CIBA error. */
export type PollAnswer =
  | {
      kind: 'grant';
      msisdn: string;
      scope: string;
      consentValidIn: number | undefined;
    }
  | { kind: 'error'; error: string; description: string };

const error = (code: string, description: string): PollAnswer => ({
  kind: 'error',
  error: code,
  description,
});

/** Consent requests (bc-authorize) and the CIBA poll rules of the consent token endpoint. */
export class ConsentStore {
  private records = new Map<string, ConsentRecord>();

  constructor(
    private readonly intervalSeconds: number,
    private readonly expiresInSeconds: number,
    /** The simulator's time (its clock), for approvals and denials made from code. */
    private readonly now: () => number = Date.now,
  ) {}

  create(
    input: NewConsent,
    now: number,
  ): { authReqId: string; interval: number; expiresIn: number } {
    const authReqId = uuidv4();
    this.records.set(authReqId, {
      ...input,
      authReqId,
      expiresAt: now + this.expiresInSeconds * 1000,
      interval: this.intervalSeconds,
      lastPollAt: undefined,
      polls: 0,
      onTimePolls: 0,
      status: 'pending',
      overridden: false,
      tokenIssued: false,
    });
    return { authReqId, interval: this.intervalSeconds, expiresIn: this.expiresInSeconds };
  }

  /** One token request for `authReqId` at `now`. */
  poll(authReqId: string, now: number): PollAnswer {
    const record = this.records.get(authReqId.toLowerCase());
    if (!record) return error('invalid_grant', 'The auth_req_id is unknown.');
    record.polls += 1;
    if (record.tokenIssued) return error('invalid_grant', 'The auth_req_id was already used.');
    if (record.status === 'denied') return denied();
    if (record.status === 'expired' || now >= record.expiresAt) return expire(record);
    const previous = record.lastPollAt;
    record.lastPollAt = now;
    if (tooEarly(previous, now, record.interval)) return slowDown(record);
    record.onTimePolls += 1;
    if (record.status === 'approved') return grant(record);
    const rule = record.overridden ? undefined : CONSENT_MAGIC[magicSuffix(record.msisdn)];
    switch (rule) {
      case 'deny':
        record.status = 'denied';
        return denied();
      case 'expire':
        return expire(record);
      case 'never':
        return pending();
      case 'slow':
        return record.onTimePolls === 1 ? slowDown(record) : grant(record);
      default:
        return record.onTimePolls >= 2 ? grant(record) : pending();
    }
  }

  has(authReqId: string): boolean {
    return this.records.has(authReqId.toLowerCase());
  }

  approve(authReqId: string): void {
    this.pendingRecord(authReqId, 'approveConsent').status = 'approved';
  }

  deny(authReqId: string): void {
    this.pendingRecord(authReqId, 'denyConsent').status = 'denied';
  }

  snapshot(now: number): ConsentRequestInfo[] {
    return [...this.records.values()].map((record) => ({
      authReqId: record.authReqId,
      msisdn: record.msisdn,
      scope: record.scope,
      accessType: record.accessType,
      status: lapsed(record, now) ? 'expired' : record.status,
      tokenIssued: record.tokenIssued,
      polls: record.polls,
      interval: record.interval,
      expiresAt: record.expiresAt,
      ...(record.callbackUrl !== undefined ? { callbackUrl: record.callbackUrl } : {}),
    }));
  }

  reset(): void {
    this.records = new Map();
  }

  private pendingRecord(authReqId: string, caller: string): ConsentRecord {
    const record = this.records.get(authReqId.toLowerCase());
    if (!record) throw new Error(`${caller}: no consent request ${authReqId}`);
    const expired = record.status === 'expired' || lapsed(record, this.now());
    if (record.status !== 'pending' || expired) {
      throw new Error(`${caller}: ${authReqId} is already ${expired ? 'expired' : record.status}`);
    }
    record.overridden = true;
    return record;
  }
}

/** Expired by time: a denial stays a denial, and an issued token stays issued. */
function lapsed(record: ConsentRecord, now: number): boolean {
  return record.status !== 'denied' && !record.tokenIssued && now >= record.expiresAt;
}

function pending(): PollAnswer {
  return error('authorization_pending', 'The account holder has not yet approved the consent.');
}

function denied(): PollAnswer {
  return error('access_denied', 'The account holder denied the consent.');
}

function expire(record: ConsentRecord): PollAnswer {
  record.status = 'expired';
  return error('expired_token', 'The auth_req_id has expired.');
}

function slowDown(record: ConsentRecord): PollAnswer {
  record.interval += SLOW_DOWN_STEP_SECONDS;
  return error('slow_down', `Polling too fast; wait at least ${record.interval} seconds.`);
}

function grant(record: ConsentRecord): PollAnswer {
  record.status = 'approved';
  record.tokenIssued = true;
  return {
    kind: 'grant',
    msisdn: record.msisdn,
    scope: record.scope,
    consentValidIn: record.consentValidIn,
  };
}
