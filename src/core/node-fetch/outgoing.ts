/** What the adapter sends: one request read out of fetch's arguments, ready for node:http. */
export interface Outgoing {
  method: string;
  /** The serialized absolute URL (fragment included; it is never sent). */
  url: string;
  /**
   * Header names and values in turn (lower-case names, already validated by Headers), as
   * node:http takes them without checking them again; the first pair is Host, still empty.
   */
  headers: string[];
  /** A Host header the caller set. */
  host: string | undefined;
  /** The body, or the Request's body still being read (only when no raw body was given). */
  body: string | Uint8Array | Promise<ArrayBuffer> | undefined;
  signal: AbortSignal | null | undefined;
  /** Epoch ms by which the answer must be complete. */
  deadline: number | undefined;
  /** See NodeFetchInit.momoTextBody. */
  textOnly: boolean;
  /**
   * The Request(s) read, to be held until the call settles: a Request's signal follows the
   * signal it was built with only while the Request itself is alive (undici links them through
   * a WeakRef), and the caller may hold neither.
   */
  pinned: Request | readonly Request[];
}

export type NodeFetchInit = RequestInit & {
  /** Sent as the body as is; a Request's own body stream is then never read. */
  momoRawBody?: string;
  /**
   * Epoch ms by which the whole answer, body included, must be in; past it the call fails
   * with an error named `TimeoutError` (as `AbortSignal.timeout` would).
   */
  momoDeadline?: number;
  /** The caller's signal, used instead of the Request's (no signal to combine per call). */
  momoSignal?: AbortSignal;
  /** Answer with a Response without body stream, its text under RESPONSE_TEXT. */
  momoTextBody?: boolean;
  /**
   * The request headers as a plain object, used instead of the Request's (already
   * checked by the caller; node:http checks them once more before writing).
   */
  momoHeaders?: Record<string, string>;
};

/** The RequestInit fields that change the request itself (as opposed to ky's extras). */
const requestFields = ['method', 'headers', 'body', 'signal'] as const;

/**
 * Reads one request out of fetch's arguments. A Request alone (ky's way) is read through its
 * getters only; anything else goes through `new Request` so its rules (header validation,
 * body kinds) are fetch's own, except the signal, which is kept out of the Request: a Request
 * built on a caller's signal adds a listener to it that only garbage collection removes.
 */
export function readOutgoing(
  input: string | URL | Request,
  init: NodeFetchInit | undefined,
): Outgoing {
  if (typeof input === 'string' && init?.momoHeaders !== undefined && ownFieldsOnly(init)) {
    return direct(input, init, init.momoHeaders);
  }
  let request: Request;
  let signal: AbortSignal | null | undefined;
  if (input instanceof Request && (init === undefined || !changesRequest(init))) {
    request = input;
    signal = input.signal;
  } else {
    signal =
      init?.signal !== undefined ? init.signal : input instanceof Request ? input.signal : null;
    const rest: RequestInit = {};
    if (init?.method !== undefined) rest.method = init.method;
    if (init?.headers !== undefined) rest.headers = init.headers;
    if (init?.body !== undefined) rest.body = init.body;
    if (init?.body != null) Object.assign(rest, { duplex: 'half' });
    request = new Request(input, rest);
  }
  if (init?.momoSignal !== undefined) signal = init.momoSignal;
  const rawBody = init?.momoRawBody;
  let body: Outgoing['body'];
  if (typeof rawBody === 'string') body = rawBody;
  else if (request.body !== null) body = request.arrayBuffer();
  const { list, host } = headerList(init?.momoHeaders ?? request.headers);
  const pinned = input instanceof Request && input !== request ? [input, request] : request;
  const { method, url } = request;
  const deadline = init?.momoDeadline;
  const textOnly = init?.momoTextBody === true;
  return { method, url, headers: list, host, body, signal, deadline, textOnly, pinned };
}

/**
 * The SDK's own calls: an absolute URL it built, headers it checked, a raw body; no Request
 * is built, as nothing here would read it (no Request: nothing to pin).
 */
function direct(url: string, init: NodeFetchInit, given: Record<string, string>): Outgoing {
  const { list, host } = headerList(given);
  return {
    method: init.method ?? 'GET',
    url,
    headers: list,
    host,
    body: init.momoRawBody,
    signal: init.momoSignal,
    deadline: init.momoDeadline,
    textOnly: init.momoTextBody === true,
    pinned: [],
  };
}

/** Only a method besides the SDK's own fields: nothing a Request would have to check. */
function ownFieldsOnly(init: NodeFetchInit): boolean {
  return init.headers === undefined && init.body === undefined && init.signal === undefined;
}

function changesRequest(init: NodeFetchInit): boolean {
  for (const field of requestFields) if (init[field] !== undefined) return true;
  return false;
}

/** Methods for which node:http sends no body framing of its own when none is given. */
const bodilessByDefault = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The header list node:http writes as is: Host first, the caller's headers, then what fetch adds
 * when absent (`accept: *\/*`, `accept-encoding`: the adapter decodes what it asks for,
 * `user-agent: node`) and a Content-Length computed here (a caller's own is dropped, as the
 * body decides it). Without one, node:http would send POST bodies chunked.
 */
export function wireHeaders(outgoing: Outgoing, host: string, bodyLength: number): string[] {
  const list = outgoing.headers;
  list[1] = outgoing.host ?? host;
  if (bodyLength > 0 || !bodilessByDefault.has(outgoing.method.toUpperCase())) {
    list.push('content-length', String(bodyLength));
  }
  return list;
}

/** Host's value is filled in once the target is known (a caller's own Host wins, as in fetch). */
function headerList(headers: Headers | Record<string, string>): {
  list: string[];
  host: string | undefined;
} {
  const list: string[] = ['host', ''];
  let host: string | undefined;
  let accept = false;
  let acceptEncoding = false;
  let userAgent = false;
  const add = (value: string, name: string) => {
    if (name === 'content-length') return;
    if (name === 'host') {
      host = value;
      return;
    }
    list.push(name, value);
    if (name === 'accept') accept = true;
    else if (name === 'accept-encoding') acceptEncoding = true;
    else if (name === 'user-agent') userAgent = true;
  };
  // forEach walks the Headers' sorted list once, without an iterator result per entry.
  if (headers instanceof Headers) headers.forEach(add);
  else for (const name in headers) add(headers[name] as string, name.toLowerCase());
  if (!accept) list.push('accept', '*/*');
  if (!acceptEncoding) list.push('accept-encoding', 'gzip, deflate, br');
  if (!userAgent) list.push('user-agent', 'node');
  return { list, host };
}
