import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type BodyRefusal,
  DEFAULT_READ_TIMEOUT_MS,
  declaredTooLarge,
  decode,
  MAX_BODY_BYTES,
  parsedBodyText,
  TOO_LARGE,
  TOO_SLOW,
} from './body';
import { type CallbackHandler, readTimeoutOf } from './handler';

/** A request as node:http, Express or Fastify's `req.raw` give it; `body` when already parsed. */
export type NodeRequest = IncomingMessage & { body?: unknown };
export type NodeListener = (req: NodeRequest, res: ServerResponse) => Promise<void>;

/**
 * Adapts a Fetch-API handler to `(req, res)` for node:http and Express. When a body
 * parser already consumed the stream (`express.json()`), `req.body` is used instead.
 * The body is read with a byte counter and a deadline (the handler's `readTimeoutMs`):
 * past 64 KB the answer is 413 at once, past the deadline 408, and nothing more is kept.
 */
export function toNodeListener(handler: CallbackHandler): NodeListener {
  const readTimeoutMs = readTimeoutOf.get(handler) ?? DEFAULT_READ_TIMEOUT_MS;
  return async (req, res) => {
    let response: Response;
    try {
      const body = await readBody(req, readTimeoutMs);
      if (typeof body !== 'string') return refuse(req, res, body);
      response = await handler(toRequest(req, body));
    } catch {
      response = new Response(JSON.stringify({ error: 'callback handling failed' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
    res.statusCode = response.status;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    res.end(new Uint8Array(await response.arrayBuffer()));
  };
}

function toRequest(req: NodeRequest, body: string): Request {
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The body handed over is the decoded text: its framing headers no longer apply.
    if (name === 'content-length' || name === 'transfer-encoding') continue;
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  return new Request(url, { method, headers, body });
}

/** The body as text, or why it was refused; the stream is left paused on a refusal. */
function readBody(req: NodeRequest, readTimeoutMs: number): Promise<string | BodyRefusal> {
  // Trust a parsed body only when its parser consumed the stream: Express 4's json()
  // leaves `{}` on requests it skipped (another Content-Type), with the stream unread.
  if (req.body !== undefined && req.readableEnded) return Promise.resolve(parsedBodyText(req.body));
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve('');
  if (declaredTooLarge(req.headers['content-length'])) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (outcome: string | BodyRefusal) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (typeof outcome !== 'string') req.pause();
      resolve(outcome);
    };
    // Web APIs only on the chunks (a Buffer is a Uint8Array): no Node globals needed.
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size > MAX_BODY_BYTES) finish(TOO_LARGE);
      else chunks.push(bytes);
    };
    const onEnd = () => finish(decode(chunks));
    const onError = () => finish({ status: 408, error: 'body not received' });
    const timer = setTimeout(() => finish(TOO_SLOW), readTimeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** After a refusal, unread bytes are discarded for this long at most, then the socket closes. */
const DRAIN_MS = 1_000;
const DRAIN_BYTES = 1024 * 1024;

/**
 * Answers a refused body and closes the connection. Closing a socket with unread data
 * resets it, which can destroy the answer before the sender reads it: what follows is
 * discarded as it arrives (never kept), for a moment and a few bytes at most.
 */
function refuse(req: NodeRequest, res: ServerResponse, refusal: BodyRefusal): void {
  res.statusCode = refusal.status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('connection', 'close');
  res.end(JSON.stringify({ error: refusal.error }));
  if (req.readableEnded) return;
  res.once('finish', () => {
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      req.destroy();
    };
    const timer = setTimeout(close, DRAIN_MS);
    req.on('data', (chunk: Uint8Array) => {
      drained += chunk.byteLength;
      if (drained > DRAIN_BYTES) close();
    });
    req.once('end', () => clearTimeout(timer));
    req.once('error', close);
    req.resume();
  });
}
