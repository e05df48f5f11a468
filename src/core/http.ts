import type { KyInstance, Options as KyOptions } from 'ky';

/** One HTTP exchange as the transport asks for it: already validated, headers final. */
export interface Exchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The attempt's signal: its deadline and the caller's abort, in one. */
  signal: AbortSignal;
}

/** A complete answer: the body is read (and parsed when it is JSON) before this resolves. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A fetch the SDK may hand extra, non-standard options (only its own Node adapter reads them). */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** The Node fast path: a pooled, capped fetch used while the runtime's own fetch is in place. */
export interface FastPath {
  /** True while it may be used: the global fetch is the runtime's own, no proxy, no dispatcher. */
  usable(): boolean;
  fetch: FetchLike;
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
    const ky = this.#ky as KyInstance;
    const fast = this.#options.fetch === undefined && this.#fastPath?.usable() === true;
    const init: KyOptions & { momoRawBody?: string } = {
      method: exchange.method,
      headers: exchange.headers,
      signal: exchange.signal,
      fetch: this.#options.fetch ?? (fast ? (this.#fastPath as FastPath).fetch : globalFetch),
    };
    // The fast path takes the body as it is: no body stream to build, tee or read back.
    if (fast) {
      if (exchange.body !== undefined) init.momoRawBody = exchange.body;
    } else if (exchange.body !== undefined) init.body = exchange.body;
    const response = await ky(exchange.url, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseBody(text) };
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

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
