import type { KyInstance, Options as KyOptions } from 'ky';

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
  headers: Headers;
  body: unknown;
}

/** A fetch the SDK may hand extra, non-standard options (only its own Node adapter reads them). */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The Node fast path: a pooled, capped fetch used while the runtime's own fetch is in
 * place. Besides the Request it reads three SDK options from `init`: the raw body, the
 * deadline (it rejects with a TimeoutError-named error when it passes, body included)
 * and the caller's signal (it rejects with the signal's reason).
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

/** Where the fast path puts the body text of a `momoTextBody` answer (see node-fetch). */
const RESPONSE_TEXT = Symbol.for('momo-partner-sdk.response-text');

export interface HttpOptions {
  /** The partner's fetch: when given, it always wins. */
  fetch: FetchLike | undefined;
  /** Loads the Node fast path on first use; undefined where there is none (web runtimes). */
  fastPath: (() => Promise<FastPath | undefined>) | undefined;
}

// Looked up at call time, so that interceptors installed later (msw) still apply.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The request pipeline: one ky instance per client (loaded with the first request, so
 * importing the SDK stays cheap), ky's own retries off (the SDK's retry loop owns them),
 * redirects never followed, and the response body read inside the attempt's deadline.
 */
export class Http {
  readonly #options: HttpOptions;
  #ky: KyInstance | undefined;
  #fastPath: FastPath | undefined;
  #loading: Promise<void> | undefined;

  constructor(options: HttpOptions) {
    this.#options = options;
  }

  /** Starts loading ky (and the fast path) without waiting: a client is made before it is used. */
  preload(): void {
    this.#loading ??= this.#load();
    this.#loading.catch(() => {}); // reported by the first exchange instead
  }

  async exchange(exchange: Exchange): Promise<Answer> {
    if (!this.#ky) {
      this.#loading ??= this.#load();
      await this.#loading;
    }
    const fastPath = this.#options.fetch === undefined ? this.#fastPath : undefined;
    if (fastPath?.usable()) return this.#fast(exchange, fastPath);
    return this.#standard(exchange, this.#options.fetch ?? globalFetch);
  }

  /**
   * Through the Node pool: headers, body, deadline and caller's signal go as they are,
   * so ky builds a Request with no headers to merge, no body stream to tee and no
   * signal to combine, and the pool reads the whole body before it resolves.
   */
  async #fast(exchange: Exchange, fastPath: FastPath): Promise<Answer> {
    const init: KyOptions & FastPathInit = {
      method: exchange.method,
      momoHeaders: exchange.headers,
      fetch: fastPath.fetch,
      momoDeadline: exchange.deadline,
      momoTextBody: true,
    };
    if (exchange.body !== undefined) init.momoRawBody = exchange.body;
    if (exchange.signal) init.momoSignal = exchange.signal;
    const response = await (this.#ky as KyInstance)(exchange.url, init);
    return read(response);
  }

  /** Through any other fetch: one signal per attempt carries the deadline and the caller's abort. */
  async #standard(exchange: Exchange, fetch: FetchLike): Promise<Answer> {
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
      const response = await (this.#ky as KyInstance)(exchange.url, init);
      return await read(response); // inside the deadline: a stalled body is cut
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async #load(): Promise<void> {
    const [{ default: ky }, fastPath] = await Promise.all([
      import('ky'),
      this.#options.fetch === undefined ? this.#options.fastPath?.() : undefined,
    ]);
    this.#fastPath = fastPath;
    this.#ky = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, redirect: 'manual' });
  }
}

async function read(response: Response): Promise<Answer> {
  const given = (response as { [RESPONSE_TEXT]?: string })[RESPONSE_TEXT];
  const text = given ?? (await response.text());
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
