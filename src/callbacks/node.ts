import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackHandler } from './handler';

/** A request as node:http, Express or Fastify's `req.raw` give it; `body` when already parsed. */
export type NodeRequest = IncomingMessage & { body?: unknown };
/** The callback handler as a node:http listener `(req, res)` (Express, Fastify's `req.raw`). */
export type NodeListener = (req: NodeRequest, res: ServerResponse) => Promise<void>;

/**
 * Adapts a Fetch-API handler to `(req, res)` for node:http and Express. When a body
 * parser already consumed the stream (`express.json()`), `req.body` is used instead.
 */
export function toNodeListener(handler: CallbackHandler): NodeListener {
  return async (req, res) => {
    let response: Response;
    try {
      response = await handler(await toRequest(req));
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

async function toRequest(req: NodeRequest): Promise<Request> {
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  return new Request(url, { method, headers, body: await readBody(req) });
}

async function readBody(req: NodeRequest): Promise<string> {
  // Trust a parsed body only when its parser consumed the stream: Express 4's json()
  // leaves `{}` on requests it skipped (another Content-Type), with the stream unread.
  if (req.body !== undefined && req.readableEnded) {
    if (typeof req.body === 'string') return req.body;
    if (req.body instanceof Uint8Array) return new TextDecoder().decode(req.body);
    return JSON.stringify(req.body);
  }
  // Web APIs only (a Buffer is a Uint8Array): the main entry stays free of Node globals.
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of req) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
