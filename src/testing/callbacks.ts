import type { TxRecord } from './ledger';
import { renderResult } from './results';
import type { SentCallback } from './types';

interface MutableCallback {
  url: string;
  method: 'POST' | 'PUT';
  body: unknown;
  status?: number;
  error?: string;
}

/**
 * Sends the outcome callback of a final transaction (spec 6) and records it. Delivery is
 * fire-and-forget: it never throws, and a failure is only recorded.
 */
export class CallbackSender {
  private records: MutableCallback[] = [];

  constructor(private readonly callbackFetch: typeof fetch | undefined) {}

  get sent(): SentCallback[] {
    return this.records.map((record) => ({ ...record }));
  }

  /** The body is the lookup body (or the operation's own) without referenceId, as MTN sends it. */
  send(tx: TxRecord): void {
    if (tx.callbackUrl === undefined) return;
    const record: MutableCallback = {
      url: tx.callbackUrl,
      method: tx.callbackMethod,
      body: renderResult(tx, false),
    };
    this.records.push(record);
    void this.deliver(record);
  }

  reset(): void {
    this.records = [];
  }

  private async deliver(record: MutableCallback): Promise<void> {
    try {
      // Looked up now, not at creation, so that msw's interception of fetch applies.
      const send = this.callbackFetch ?? globalThis.fetch;
      const response = await send(record.url, {
        method: record.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(record.body),
      });
      record.status = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
  }
}
