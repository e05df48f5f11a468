import type { ResponseHeaders } from './raw-headers';

/**
 * The transport port: the one interface between the call pipeline and the wire. Two
 * senders implement it, the Node keep-alive pool (node-pool/) and the fetch client
 * (fetch-sender.ts); `chooseSender` (sender.ts) picks one per exchange.
 */
export interface Sender {
  /**
   * Sends one exchange and resolves once the whole answer, body included, is in. Rejects
   * with the signal's reason on abort, with an error named `TimeoutError` when the
   * deadline passes, or with the network failure (its `code` kept somewhere in the cause chain).
   */
  send(exchange: Exchange): Promise<Answer>;
}

/** One HTTP exchange as the transport asks for it: already validated, headers final. */
export interface Exchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Epoch ms by which the whole answer, body included, must be in. */
  deadline: number;
  /** The caller's signal, if any. */
  signal: AbortSignal | undefined;
}

/** A complete answer: the body is read (and parsed when it is JSON) before this resolves. */
export interface Answer {
  status: number;
  headers: ResponseHeaders;
  body: unknown;
}

/** What a sender rejects with when the deadline passes (named like `AbortSignal.timeout`'s). */
export function deadlineError(): Error {
  const error = new Error('the attempt deadline passed before the answer was complete');
  error.name = 'TimeoutError';
  return error;
}

/** JSON when it parses, the text as it is otherwise, undefined when empty. */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
