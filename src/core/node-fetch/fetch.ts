import type http from 'node:http';
import { codingsToUndo, decode } from './decode';
import { type NodeFetchInit, type Outgoing, readOutgoing, wireHeaders } from './outgoing';
import { httpModule, Pool, type PoolOptions, type PoolStats } from './pool';
import { splitUrl, type Target } from './target';

export type NodeFetchOptions = PoolOptions;

/** fetch over the pool, plus the pool's socket counts and a way to close it. */
export interface NodeFetch {
  (input: string | URL | Request, init?: NodeFetchInit): Promise<Response>;
  stats(): PoolStats;
  /** Destroys every socket of both Agents (busy ones fail their call); later calls reconnect. */
  close(): void;
}

/** Statuses whose responses have no body, whatever the wire says (Fetch standard). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch on node:http keep-alive Agents. It behaves like Node's fetch where an API client
 * can tell: errors, abort, redirects (returned, never followed), decoding, repeated headers.
 * The body is read in full before the promise settles, so a deadline around the call covers it.
 */
export function createNodeFetch(options: NodeFetchOptions): NodeFetch {
  const pool = new Pool(options);
  const nodeFetch = (input: string | URL | Request, init?: NodeFetchInit): Promise<Response> => {
    let outgoing: Outgoing;
    try {
      outgoing = readOutgoing(input, init);
    } catch (error) {
      return Promise.reject(error);
    }
    const signal = outgoing.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let target: Target;
    let path: string;
    try {
      ({ target, path } = splitUrl(outgoing.url));
    } catch (error) {
      return Promise.reject(fetchFailed(error));
    }
    return new Promise((resolve, reject) => {
      exchange(pool.agent(target.secure), target, path, outgoing, resolve, reject);
    });
  };
  return Object.assign(nodeFetch, {
    stats: () => pool.stats(),
    close: () => pool.close(),
  });
}

/** Sends one request and reads its whole answer; settles once, then stops listening. */
function exchange(
  agent: http.Agent,
  target: Target,
  path: string,
  outgoing: Outgoing,
  resolve: (response: Response) => void,
  reject: (reason: unknown) => void,
): void {
  const { signal, method } = outgoing;
  let request: http.ClientRequest | undefined;
  let settled = false;
  // These closures share one scope holding `outgoing`, hence its Requests (see Outgoing.pinned),
  // for as long as the socket or the abort signal can still call them.
  const settle = () => {
    settled = true;
    signal?.removeEventListener('abort', onAbort);
    if (timer !== undefined) clearTimeout(timer);
  };
  const fail = (error: unknown) => {
    if (settled) return;
    settle();
    request?.destroy();
    reject(fetchFailed(error));
  };
  const onAbort = () => {
    if (settled) return;
    settle();
    request?.destroy();
    reject(signal?.reason);
  };
  const onResponse = (response: http.IncomingMessage) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (first === undefined) first = chunk;
      else if (chunks === undefined) chunks = [first, chunk];
      else chunks.push(chunk);
    });
    response.on('error', fail);
    response.on('end', () => {
      if (settled) return;
      const bytes = chunks ? Buffer.concat(chunks, size) : (first ?? empty);
      let built: Response | Promise<Response>;
      try {
        built = answer(response, method, bytes, outgoing.textOnly);
      } catch (error) {
        return fail(error);
      }
      if (built instanceof Response) {
        settle();
        resolve(built);
        return;
      }
      built.then((decoded) => {
        if (settled) return;
        settle();
        resolve(decoded);
      }, fail);
    });
  };
  const send = (body: string | Uint8Array | undefined) => {
    if (settled) return;
    const length =
      body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    try {
      request = httpModule().request({
        agent,
        protocol: target.secure ? 'https:' : 'http:',
        hostname: target.hostname,
        port: target.port,
        method,
        path,
        headers: wireHeaders(outgoing, target.host, length),
      });
    } catch (error) {
      // node:http's own checks (none expected after Request's): fail like fetch, unlistened.
      return fail(error);
    }
    request.on('response', onResponse);
    request.on('error', fail);
    request.end(body);
  };
  signal?.addEventListener('abort', onAbort);
  const timer =
    outgoing.deadline === undefined
      ? undefined
      : setTimeout(onDeadline, Math.max(0, outgoing.deadline - Date.now()));
  function onDeadline() {
    if (settled) return;
    settle();
    request?.destroy();
    reject(deadlinePassed());
  }
  const body = outgoing.body;
  if (body instanceof Promise) {
    body.then((bytes) => send(new Uint8Array(bytes)), fail);
  } else {
    send(body);
  }
}

const empty = Buffer.alloc(0);

/** The property holding the decoded body text of a `momoTextBody` answer. */
export const RESPONSE_TEXT = Symbol.for('momo-partner-sdk.response-text');

/** Buffers from sockets and zlib sit on plain ArrayBuffers (never shared memory). */
type BodyBytes = Uint8Array<ArrayBuffer>;

/**
 * The Response fetch would give: repeated headers appended one by one, bodies decoded (then
 * asynchronously; otherwise at once, sparing a promise per call).
 */
function answer(
  incoming: http.IncomingMessage,
  method: string,
  bytes: Buffer,
  textOnly: boolean,
): Response | Promise<Response> {
  const status = incoming.statusCode ?? 0;
  const statusText = incoming.statusMessage ?? '';
  const raw = incoming.rawHeaders;
  const noBody = nullBodyStatuses.has(status) || method === 'HEAD';
  if (textOnly) {
    const text = (body: Buffer) => withText(noBody ? '' : body.toString('utf8'), status, raw);
    if (noBody) return text(empty);
    const codings = contentCodings(incoming);
    return codings === undefined || bytes.length === 0
      ? text(bytes)
      : decode(bytes, codings).then(text);
  }
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const init = { status, statusText, headers };
  if (noBody) return new Response(null, init);
  const build = (body: Buffer) => new Response(body as BodyBytes, init);
  const codings = contentCodings(incoming);
  if (codings === undefined || bytes.length === 0) return build(bytes);
  return decode(bytes, codings).then(build);
}

/** The codings to undo, or undefined when the body came as it is. */
function contentCodings(incoming: http.IncomingMessage) {
  const encoding = incoming.headers['content-encoding'];
  const codings = encoding === undefined ? undefined : codingsToUndo(encoding);
  return codings === undefined || codings.length === 0 ? undefined : codings;
}

/**
 * Where the body is wanted as text only (the SDK's own calls, `momoTextBody`): a Response
 * with neither body stream nor Headers, and beside it, under RESPONSE_TEXT, the decoded
 * text and node:http's raw header list. A body stream and a Headers object per answer
 * cost more than the rest of the exchange put together.
 */
function withText(text: string, status: number, rawHeaders: string[]): Response {
  const response = new Response(null, { status });
  Object.defineProperty(response, RESPONSE_TEXT, { value: { text, rawHeaders } });
  return response;
}

/** Like `AbortSignal.timeout`'s reason: the name says what happened. */
function deadlinePassed(): Error {
  const error = new Error('the deadline passed before the answer was complete');
  error.name = 'TimeoutError';
  return error;
}

/** What Node's fetch rejects with when the request fails: the original error as the cause. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}
