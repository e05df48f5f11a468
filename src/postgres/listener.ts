import type { PostgresPool, PostgresPoolClient } from './connection';

/** What the LISTEN client is beyond a pooled client: node-postgres' events. */
interface ListeningClient extends PostgresPoolClient {
  on(event: 'notification' | 'error' | 'end', listener: (...args: unknown[]) => void): unknown;
}

/** The first reconnect after this long, doubling to the last. */
const FIRST_RECONNECT_MS = 100;
const LAST_RECONNECT_MS = 5000;

/**
 * The state's one LISTEN client, taken from the partner's pool while a relay runs: every
 * NOTIFY on the channel wakes every relay of the state. When its connection fails or is
 * killed, it is released (closed) and taken again with backoff; once back, the relays are
 * woken (a NOTIFY may have been missed meanwhile; their polling covers the gap).
 */
export class OutboxListener {
  readonly #pool: PostgresPool;
  readonly #channel: string;
  readonly #wakes = new Set<() => void>();
  #client: ListeningClient | undefined;
  #connecting: Promise<void> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;

  constructor(pool: PostgresPool, channel: string) {
    this.#pool = pool;
    this.#channel = channel;
  }

  /** Calls `wake` on every notification; the first subscriber opens the LISTEN client. */
  subscribe(wake: () => void): () => void {
    this.#wakes.add(wake);
    if (!this.#client && !this.#connecting && !this.#retry) this.#connect();
    return () => {
      this.#wakes.delete(wake);
      if (this.#wakes.size === 0) this.close();
    };
  }

  /** Releases the LISTEN client (its connection closed, not pooled: it listens). */
  close(): void {
    this.#wakes.clear();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#drop();
  }

  #wakeAll(): void {
    for (const wake of this.#wakes) wake();
  }

  #connect(): void {
    this.#connecting = (async () => {
      let client: ListeningClient | undefined;
      try {
        client = (await this.#pool.connect()) as ListeningClient;
        if (typeof client.on !== 'function') {
          client.release();
          return; // no notifications on this pool: polling alone
        }
        const lost = (error: unknown) => this.#lost(client as ListeningClient, error);
        client.on('error', lost);
        client.on('end', () => lost(new Error('LISTEN connection ended')));
        client.on('notification', () => this.#wakeAll());
        await client.query(`LISTEN "${this.#channel}"`);
        if (this.#wakes.size === 0) {
          client.release(true); // closed while connecting
          return;
        }
        this.#client = client;
        if (this.#failures > 0) this.#wakeAll(); // back: what was notified meanwhile
        this.#failures = 0;
      } catch (error) {
        client?.release(error instanceof Error ? error : true);
        this.#schedule();
      } finally {
        this.#connecting = undefined;
      }
    })();
  }

  #lost(client: ListeningClient, _error: unknown): void {
    if (this.#client !== client) return; // an earlier client's late event
    this.#drop();
    this.#schedule();
  }

  #drop(): void {
    const client = this.#client;
    this.#client = undefined;
    try {
      client?.release(true);
    } catch {
      // Released already (its connection ended).
    }
  }

  #schedule(): void {
    if (this.#wakes.size === 0 || this.#retry) return;
    const ms = Math.min(LAST_RECONNECT_MS, FIRST_RECONNECT_MS * 2 ** Math.min(this.#failures, 16));
    this.#failures += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect();
    }, ms);
  }
}
