import type http from 'node:http';
import { whenAborted } from '../abortable';
import { type Answer, deadlineError, type Exchange, parseBody, type Sender } from '../port';
import { RawHeaders } from '../raw-headers';
import { codingsToUndo, decode } from './decode';
import { httpModule, Pool, type PoolOptions } from './pool';
import { splitUrl, type Target } from './target';

/** The Node sender: node:http keep-alive Agents, and a way to close them. */
export interface NodePool extends Sender {
  /**
   * Destroys every socket of both Agents (busy ones fail their call); later calls
   * reconnect. `graceful`: idle ones now, busy ones once their answer is read, none cut.
   */
  close(graceful?: boolean): void;
}

/**
 * Exchanges over node:http keep-alive Agents, capped per origin. The answer's body is read
 * (and decoded) in full before the promise settles, so the deadline covers it; redirects are
 * returned, never followed. No Request, Response or Headers is built.
 */
export function createNodePool(options: PoolOptions): NodePool {
  const pool = new Pool(options);
  return {
    send: (exchange) => send(pool, exchange),
    close: (graceful) => pool.close(graceful),
  };
}

function send(pool: Pool, exchange: Exchange): Promise<Answer> {
  if (exchange.signal?.aborted) return Promise.reject(exchange.signal.reason);
  let target: Target;
  let path: string;
  try {
    ({ target, path } = splitUrl(exchange.url));
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    flight(pool.agent(target.secure), target, path, exchange, resolve, reject);
  });
}

/** Sends one request and reads its whole answer; settles once, then stops listening. */
function flight(
  agent: http.Agent,
  target: Target,
  path: string,
  exchange: Exchange,
  resolve: (answer: Answer) => void,
  reject: (reason: unknown) => void,
): void {
  let request: http.ClientRequest | undefined;
  let settled = false;
  const stop = (reason: unknown) => {
    if (settled) return;
    finish();
    request?.destroy();
    reject(reason);
  };
  const stopListening = whenAborted(exchange.signal, stop);
  const timer = setTimeout(
    () => stop(deadlineError()),
    Math.max(0, exchange.deadline - Date.now()),
  );
  const finish = () => {
    settled = true;
    stopListening();
    clearTimeout(timer);
  };
  const onResponse = (response: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
    });
    response.on('error', stop);
    response.on('end', () => {
      if (settled) return;
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      const done = (answer: Answer) => {
        if (settled) return;
        finish();
        resolve(answer);
      };
      let read: Answer | Promise<Answer>;
      try {
        read = readAnswer(response, exchange.method, bytes);
      } catch (error) {
        return stop(error);
      }
      if (read instanceof Promise) read.then(done, stop);
      else done(read);
    });
  };
  try {
    request = httpModule().request({
      agent,
      protocol: target.secure ? 'https:' : 'http:',
      hostname: target.hostname,
      port: target.port,
      method: exchange.method,
      path,
      headers: wireHeaders(exchange, target.host),
    });
  } catch (error) {
    // node:http's own header checks: fail the exchange instead of throwing.
    stop(error);
    return;
  }
  request.on('response', onResponse);
  request.on('error', stop);
  request.end(exchange.body);
}

/** Statuses whose answers have no body, whatever the wire says. */
const noBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * The answer: the body decoded and parsed, the raw header list as is. At once unless the
 * body is compressed (decoding a large body does not block the event loop).
 */
function readAnswer(
  incoming: http.IncomingMessage,
  method: string,
  bytes: Buffer,
): Answer | Promise<Answer> {
  const status = incoming.statusCode ?? 0;
  const headers = new RawHeaders(incoming.rawHeaders);
  if (noBodyStatuses.has(status) || method === 'HEAD' || bytes.length === 0) {
    return { status, headers, body: undefined };
  }
  const encoding = incoming.headers['content-encoding'];
  const codings = encoding === undefined ? undefined : codingsToUndo(encoding);
  const parsed = (decoded: Buffer) => ({ status, headers, body: parseBody(decoded.toString()) });
  return codings?.length ? decode(bytes, codings).then(parsed) : parsed(bytes);
}

/** Methods for which node:http sends no body framing of its own when none is given. */
const bodilessByDefault = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The header list node:http writes as is: Host, the SDK's headers, then what fetch would add
 * when absent (`accept: *\/*`, `accept-encoding`: the pool decodes what it asks for,
 * `user-agent: node`) and a Content-Length computed here (a given one is dropped: the body
 * decides it). Without one, node:http would send POST bodies chunked.
 */
export function wireHeaders(exchange: Exchange, host: string): string[] {
  const list: string[] = ['host', host];
  let accept = false;
  let acceptEncoding = false;
  let userAgent = false;
  const { headers, body, method } = exchange;
  for (const given in headers) {
    const name = given.toLowerCase();
    if (name === 'content-length') continue;
    const value = headers[given] as string;
    if (name === 'host') {
      list[1] = value;
      continue;
    }
    list.push(name, value);
    if (name === 'accept') accept = true;
    else if (name === 'accept-encoding') acceptEncoding = true;
    else if (name === 'user-agent') userAgent = true;
  }
  if (!accept) list.push('accept', '*/*');
  if (!acceptEncoding) list.push('accept-encoding', 'gzip, deflate, br');
  if (!userAgent) list.push('user-agent', 'node');
  const length = body === undefined ? 0 : Buffer.byteLength(body);
  if (length > 0 || !bodilessByDefault.has(method.toUpperCase())) {
    list.push('content-length', String(length));
  }
  return list;
}
