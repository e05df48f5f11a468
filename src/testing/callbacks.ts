import type { TxRecord } from './ledger';
import { renderResult } from './results';
import type { SentCallback } from './types';

interface MutableCallback {
  url: string;
  method: 'POST' | 'PUT';
  body: unknown;
  /** The API user whose creating call asked for it (whose providerCallbackHost counts). */
  createdBy: string | undefined;
  status?: number;
  error?: string;
  /** Kept for the payer's phone page only; not part of SentCallback. */
  sentAt?: number;
  latencyMs?: number;
}

/** A sent callback as the payer's phone page shows it: when, and how long the answer took. */
export interface CallbackLogEntry extends SentCallback {
  readonly sentAt: number;
  readonly latencyMs?: number;
}

/** Why a callback may not be sent over the network (its host), or undefined. */
export type DeliveryRule = (url: string, createdBy: string | undefined) => string | undefined;

/**
 * Sends the outcome callback of a final transaction (spec 6) and records it. Delivery is
 * fire-and-forget: it never throws, and a failure is only recorded. Without a
 * `callbackFetch`, a URL the rule refuses is not sent, only recorded; redirects are never
 * followed (a 3xx is the answer recorded).
 */
export class CallbackSender {
  private records: MutableCallback[] = [];

  constructor(
    private readonly callbackFetch: typeof fetch | undefined,
    private readonly rule: DeliveryRule,
  ) {}

  get sent(): SentCallback[] {
    return this.records.map(
      ({ sentAt: _sentAt, latencyMs: _latencyMs, createdBy: _createdBy, ...record }) => record,
    );
  }

  /** Every callback sent, with its send time and latency (the page's log). */
  get log(): CallbackLogEntry[] {
    return this.records.map(({ createdBy: _createdBy, ...record }) => ({
      ...record,
      sentAt: record.sentAt ?? 0,
    }));
  }

  /** Sends the callback at `index` of the log again, as a new entry; false if none. */
  resend(index: number): boolean {
    const original = this.records[index];
    if (!original) return false;
    const record: MutableCallback = {
      url: original.url,
      method: original.method,
      body: original.body,
      createdBy: original.createdBy,
    };
    this.records.push(record);
    void this.deliver(record);
    return true;
  }

  /** The body is the lookup body (or the operation's own) without referenceId, as MTN sends it. */
  send(tx: TxRecord): void {
    if (tx.callbackUrl === undefined) return;
    const record: MutableCallback = {
      url: tx.callbackUrl,
      method: tx.callbackMethod,
      body: renderResult(tx, false),
      createdBy: tx.createdBy,
    };
    this.records.push(record);
    void this.deliver(record);
  }

  reset(): void {
    this.records = [];
  }

  private async deliver(record: MutableCallback): Promise<void> {
    record.sentAt = Date.now();
    const refusal = this.callbackFetch ? undefined : this.rule(record.url, record.createdBy);
    if (refusal !== undefined) {
      record.error = refusal;
      return;
    }
    const started = performance.now();
    try {
      // Looked up now, not at creation, so that msw's interception of fetch applies.
      const send = this.callbackFetch ?? globalThis.fetch;
      const response = await send(record.url, {
        method: record.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(record.body),
        redirect: 'manual',
      });
      record.status = response.status;
      record.latencyMs = Math.round(performance.now() - started);
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      record.latencyMs = Math.round(performance.now() - started);
    }
  }
}
