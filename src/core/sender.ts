import { type FetchLike, FetchSender } from './fetch-sender';
import { createNodePool, isNativeFetch, type NodePool } from './node-pool/index';
import type { Answer, Exchange, Sender } from './port';

/** The Node pool and the check that says when it may stand in for fetch. */
export interface NodePath {
  pool: NodePool;
  /** True while `globalThis.fetch` is Node's own, with no dispatcher set and no proxy variable. */
  usable(): boolean;
}

/**
 * The Node pool, only on Node itself (not Bun, Deno or a browser, whose own fetch is used).
 * Its modules touch no Node API until a request is sent (node:http is loaded then, with
 * process.getBuiltinModule), so they are bundled in statically: a dynamic import would
 * wrap each of them in a lazy initializer. Kept static: guarded by the bench target
 * "main entry <= 45 KB min+gzip".
 */
export async function loadNodePath(maxSockets: number): Promise<NodePath | undefined> {
  const versions = globalThis.process?.versions as Record<string, string | undefined> | undefined;
  if (!versions?.node || versions.bun || 'Deno' in globalThis) return undefined;
  return { pool: createNodePool({ maxSockets }), usable: isNativeFetch };
}

export interface SenderOptions {
  /** The partner's fetch: when given, it always wins. */
  fetch: FetchLike | undefined;
  /** Loads the Node path; undefined where there is none (web runtimes, the sandbox helper). */
  nodePath: (() => Promise<NodePath | undefined>) | undefined;
}

/**
 * The one place that chooses a sender, per exchange: the Node pool while the runtime's own
 * fetch is in place (no fetch option, no dispatcher, no proxy variable: see
 * docs/transport.md), the fetch sender otherwise. Checked per exchange, so that msw or a
 * dispatcher installed after the client was made still applies.
 */
export class ChosenSender implements Sender {
  readonly #fetch: FetchSender;
  readonly #loadNodePath: (() => Promise<NodePath | undefined>) | undefined;
  #nodePath: NodePath | undefined;
  #loading: Promise<NodePath | undefined> | undefined;
  /** Set once the Node path is loaded or known absent: exchanges then skip the await. */
  #known = false;

  constructor(options: SenderOptions) {
    this.#fetch = new FetchSender(options.fetch);
    this.#loadNodePath = options.fetch === undefined ? options.nodePath : undefined;
  }

  /** Starts loading what the first exchange will use, without waiting. */
  preload(): void {
    const loading = this.#load().then((node) => {
      if (!node?.usable()) return this.#fetch.load();
    });
    loading.catch(() => {}); // reported by the first exchange instead
  }

  send(exchange: Exchange): Promise<Answer> {
    if (!this.#known) return this.#load().then(() => this.send(exchange));
    const node = this.#nodePath;
    return node?.usable() ? node.pool.send(exchange) : this.#fetch.send(exchange);
  }

  /** The Node pool's sockets let go of (no call cut); later exchanges open new ones. */
  close(): void {
    this.#nodePath?.pool.close(true);
  }

  #load(): Promise<NodePath | undefined> {
    this.#loading ??= (async () => {
      this.#nodePath = await this.#loadNodePath?.();
      this.#known = true;
      return this.#nodePath;
    })();
    return this.#loading;
  }
}
