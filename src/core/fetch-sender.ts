import type { KyInstance, Options as KyOptions } from 'ky';
import { whenAborted } from './abortable';
import { type Answer, deadlineError, type Exchange, parseBody, type Sender } from './port';

/** A fetch: the partner's, msw's, or the runtime's own. */
export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

// Looked up at call time, so that interceptors installed later (msw) still apply.
const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * The sender for every runtime and every fetch (the partner's, msw, Bun, Deno, the web, and
 * Node's own when the pool may not be used): ky, loaded with the first exchange, ky's
 * retries off (the SDK's retry loop owns them), redirects never followed, the body read
 * inside the deadline.
 */
export class FetchSender implements Sender {
  readonly #fetch: FetchLike;
  #ky: KyInstance | undefined;
  #loading: Promise<KyInstance> | undefined;

  /** `fetch` undefined: `globalThis.fetch`, looked up per exchange. */
  constructor(fetch: FetchLike | undefined) {
    this.#fetch = fetch ?? globalFetch;
  }

  async send(exchange: Exchange): Promise<Answer> {
    const ky = this.#ky ?? (await this.load());
    // One signal per exchange carries the deadline and the caller's abort.
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(deadlineError()),
      Math.max(0, exchange.deadline - Date.now()),
    );
    const stopListening = whenAborted(exchange.signal, (reason) => controller.abort(reason));
    try {
      const init: KyOptions = {
        method: exchange.method,
        headers: exchange.headers,
        signal: controller.signal,
        fetch: this.#fetch,
      };
      if (exchange.body !== undefined) init.body = exchange.body;
      const response = await ky(exchange.url, init);
      const text = await response.text(); // inside the deadline: a stalled body is cut
      return { status: response.status, headers: response.headers, body: parseBody(text) };
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      stopListening();
    }
  }

  /** Loads ky (once); a client made before it is used starts this early. */
  load(): Promise<KyInstance> {
    this.#loading ??= import('ky').then(({ default: ky }) => {
      this.#ky = ky.create({
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        redirect: 'manual',
      });
      return this.#ky;
    });
    return this.#loading;
  }
}
