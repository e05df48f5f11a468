import type { MomoClient } from 'momo-partner-sdk';

/** A live client in the recency list. */
interface LiveClient {
  readonly id: string;
  readonly client: MomoClient;
  /** The client as an already settled promise, made once: what every use hands back. */
  readonly ready: Promise<MomoClient>;
  older: LiveClient | undefined;
  newer: LiveClient | undefined;
}

/**
 * The tenants' live clients, least recently used first: a Map for the lookup and a
 * doubly linked list through the entries for the order. A use (`use`) is a Map hit and a
 * few pointer moves, and hands back the promise made when the client was: nothing is
 * allocated per call (issue 40: the tenant layer costs at most 1.05x a bare client).
 */
export class LiveClients {
  readonly #byId = new Map<string, LiveClient>();
  #oldest: LiveClient | undefined;
  #newest: LiveClient | undefined;

  get size(): number {
    return this.#byId.size;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The tenant's live client, made the most recently used; undefined when none is live. */
  use(id: string): Promise<MomoClient> | undefined {
    const entry = this.#byId.get(id);
    if (entry === undefined) return undefined;
    if (entry !== this.#newest) {
      this.#unlink(entry);
      this.#append(entry);
    }
    return entry.ready;
  }

  /** Keeps `client` as the tenant's live one, the most recently used; returns the one it replaced. */
  set(id: string, client: MomoClient): MomoClient | undefined {
    const old = this.#byId.get(id);
    if (old !== undefined) this.#unlink(old);
    const entry: LiveClient = {
      id,
      client,
      ready: Promise.resolve(client),
      older: undefined,
      newer: undefined,
    };
    this.#byId.set(id, entry);
    this.#append(entry);
    return old?.client;
  }

  /** Takes out the least recently used clients beyond `max` and returns them, oldest first. */
  evictBeyond(max: number): MomoClient[] {
    const evicted: MomoClient[] = [];
    while (this.#byId.size > max && this.#oldest !== undefined) {
      const entry = this.#oldest;
      this.#unlink(entry);
      this.#byId.delete(entry.id);
      evicted.push(entry.client);
    }
    return evicted;
  }

  /** Takes out every client and returns them. */
  clear(): MomoClient[] {
    const all = [...this.#byId.values()].map((entry) => entry.client);
    this.#byId.clear();
    this.#oldest = undefined;
    this.#newest = undefined;
    return all;
  }

  #unlink(entry: LiveClient): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  #append(entry: LiveClient): void {
    entry.older = this.#newest;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }
}
