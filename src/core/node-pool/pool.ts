import type http from 'node:http';
import type https from 'node:https';

/**
 * node:http and node:https (which loads tls and crypto) are loaded on first use, not when the
 * SDK is imported: a client that never calls, or only over http, does not pay for them.
 */
let loadedHttp: typeof http | undefined;
// Kept once loaded: getBuiltinModule checks and normalizes its id on every call.
export const httpModule = () => (loadedHttp ??= process.getBuiltinModule('node:http'));
const httpsModule = () => process.getBuiltinModule('node:https');

export interface PoolOptions {
  /** Sockets per origin (scheme, host and port); further requests queue in the Agent. */
  maxSockets: number;
  /** Extra trust for https (a partner's private CA, a test's self-signed certificate). */
  tls?: { ca?: string | Buffer };
}

/**
 * Idle sockets are closed after this long, or 1 s before the server's `Keep-Alive: timeout`
 * when that is sooner (Node's Agent applies the hint only when it has a timeout of its own).
 * Reusing a socket the server is closing fails with ECONNRESET; 4 s is undici's default.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * One keep-alive Agent per scheme, created on first use. Its sockets are counted by the
 * tests' servers, not here: the shipped pool carries no instrumentation.
 */
export class Pool {
  readonly #options: PoolOptions;
  #http: http.Agent | undefined;
  #https: https.Agent | undefined;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  agent(secure: boolean): http.Agent {
    if (secure) {
      this.#https ??= new (httpsModule().Agent)({ ...this.#agentOptions(), ...this.#options.tls });
      return this.#https;
    }
    this.#http ??= new (httpModule().Agent)(this.#agentOptions());
    return this.#http;
  }

  /**
   * Destroys every socket, busy or idle; later calls open new ones. `graceful`: no call
   * cut, idle sockets closed now, busy ones (and those a queued request still gets) once
   * their answer is read (`MomoClient.close`).
   */
  close(graceful?: boolean): void {
    for (const agent of [this.#http, this.#https] as (http.Agent & { keepAlive?: boolean })[]) {
      if (!agent) continue;
      // Node's Agent reads `keepAlive` when a socket comes free: false closes it then.
      agent.keepAlive = false;
      if (!graceful) agent.destroy();
      else for (const socket of Object.values(agent.freeSockets).flat()) socket!.destroy();
    }
    this.#http = this.#https = undefined;
  }

  #agentOptions(): http.AgentOptions {
    return {
      keepAlive: true,
      maxSockets: this.#options.maxSockets,
      timeout: IDLE_SOCKET_MS,
      scheduling: 'lifo',
    };
  }
}
