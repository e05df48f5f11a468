import type { KyInstance, Options as KyOptions } from 'ky';
import { RawHeaders, type ResponseHeaders } from './raw-headers';

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

/** What an exchange rejects with when its deadline passes (like `AbortSignal.timeout`). */
export function deadlineError(): Error {
  const error = new Error('the attempt deadline passed');
  error.name = 'TimeoutError';
  return error;
}

/** A complete answer: the body is read (and parsed when it is JSON) before this resolves. */
export interface Answer {
  status: number;
  headers: ResponseHeaders;
  body: unknown;
}

/** A fetch the SDK may hand extra, non-standard options (only its own Node adapter reads them). */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The Node fast path: a pooled, capped fetch used while the runtime's own fetch is in
 * place. The SDK calls it with the URL it built and its own `init` fields: the checked
 * headers, the raw body, the deadline (it rejects with a TimeoutError-named error when it
 * passes, body included) and the caller's signal (it rejects with the signal's reason).
 */
export interface FastPath {
  /** True while it may be used: the global fetch is the runtime's own, no proxy, no dispatcher. */
  usable(): boolean;
  fetch: FetchLike;
}

interface FastPathInit {
  momoRawBody?: string;
  momoDeadline?: number;
  momoSignal?: AbortSignal;
  momoTextBody?: boolean;
  momoHeaders?: Record<string, string>;
}

/** Where the fast path puts the body text and raw headers of a `momoTextBody` answer (see node-fetch). */
const RESPONSE_TEXT = Symbol.for('momo-partner-sdk.response-text');

interface TextAnswer {
  text: string;
  rawHeaders: string[];
}

export interface HttpOptions {
  /** The partner's fetch: when given, it always wins. */
  fetch: FetchLike | undefined;
  /** Loads the Node fast path on first use; undefined where there is none (web runtimes). */
  fastPath: (() => Promise<FastPath | undefined>) | undefined;
}

// Looked up at call time, so that interceptors installed later (msw) still apply.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The request pipeline. Calls through a fetch (the partner's, msw's, a web runtime's, or
 * Node's own when the pool may not be used) go through ky: one instance per client,
 * loaded with the first such call, ky's retries off (the SDK's retry loop owns them),
 * redirects never followed, the body read inside the attempt's deadline. On Node, while
 * its own fetch is in place, calls go to the capped keep-alive pool directly: it would
 * read nothing of the Request ky builds, and building it (with its signal, headers and
 * finalizer) cost more than the rest of the call.
 */
export class Http {
  readonly #options: HttpOptions;
  #ky: KyInstance | undefined;
  #kyLoading: Promise<KyInstance> | undefined;
  #fastPath: FastPath | undefined;
  #fastPathLoading: Promise<FastPath | undefined> | undefined;
  /** Set once the pool is loaded, or known not to be used: calls then skip the await. */
  #fastPathKnown = false;

  constructor(options: HttpOptions) {
    this.#options = options;
  }

  /** Starts loading what the first call will use, without waiting: a client is made before it is used. */
  preload(): void {
    const loading = this.#loadFastPath().then((fastPath) => {
      if (!fastPath?.usable()) return this.#loadKy();
    });
    loading.catch(() => {}); // reported by the first exchange instead
  }

  async exchange(exchange: Exchange): Promise<Answer> {
    const fastPath = this.#fastPathKnown ? this.#fastPath : await this.#loadFastPath();
    if (fastPath?.usable()) return this.#fast(exchange, fastPath);
    const ky = this.#ky ?? (await this.#loadKy());
    return this.#standard(ky, exchange, this.#options.fetch ?? globalFetch);
  }

  /**
   * Through the Node pool: headers, body, deadline and caller's signal go as they are (no
   * Headers to merge, no body stream, no signal to combine), and the pool reads the whole
   * body before it resolves.
   */
  async #fast(exchange: Exchange, fastPath: FastPath): Promise<Answer> {
    const init: RequestInit & FastPathInit = {
      method: exchange.method,
      momoHeaders: exchange.headers,
      momoDeadline: exchange.deadline,
      momoTextBody: true,
    };
    if (exchange.body !== undefined) init.momoRawBody = exchange.body;
    if (exchange.signal) init.momoSignal = exchange.signal;
    return read(await fastPath.fetch(exchange.url, init));
  }

  /** Through ky and a fetch: one signal per attempt carries the deadline and the caller's abort. */
  async #standard(ky: KyInstance, exchange: Exchange, fetch: FetchLike): Promise<Answer> {
    const { signal, deadline } = exchange;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(deadlineError()),
      Math.max(0, deadline - Date.now()),
    );
    // A listener removed when the attempt ends: never AbortSignal.any on a long-lived signal.
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const init: KyOptions = {
        method: exchange.method,
        headers: exchange.headers,
        signal: controller.signal,
        fetch,
      };
      if (exchange.body !== undefined) init.body = exchange.body;
      const response = await ky(exchange.url, init);
      return await read(response); // inside the deadline: a stalled body is cut
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The Node pool, unless the partner gave a fetch (theirs always wins) or there is none. */
  #loadFastPath(): Promise<FastPath | undefined> {
    this.#fastPathLoading ??= (async () => {
      const { fetch, fastPath } = this.#options;
      this.#fastPath = fetch === undefined ? await fastPath?.() : undefined;
      this.#fastPathKnown = true;
      return this.#fastPath;
    })();
    return this.#fastPathLoading;
  }

  #loadKy(): Promise<KyInstance> {
    this.#kyLoading ??= import('ky').then(({ default: ky }) => {
      this.#ky = ky.create({
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        redirect: 'manual',
      });
      return this.#ky;
    });
    return this.#kyLoading;
  }
}

async function read(response: Response): Promise<Answer> {
  const given = (response as { [RESPONSE_TEXT]?: TextAnswer })[RESPONSE_TEXT];
  if (given !== undefined) {
    const headers = new RawHeaders(given.rawHeaders);
    return { status: response.status, headers, body: parseBody(given.text) };
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parseBody(text) };
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
