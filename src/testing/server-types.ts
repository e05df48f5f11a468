/** Options of `sim.listen()`: port and interface (default 127.0.0.1). */
export interface ListenOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * Host names accepted in the `Host` header besides loopback names and the bound host
   * (other Host values get 403: DNS rebinding), e.g. `['momo-sim']` for a simulator bound
   * to `0.0.0.0` in docker-compose. Bare host names.
   */
  allowedHosts?: readonly string[];
}

/** The simulator served over HTTP by `sim.listen()`. */
export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server and closes its connections. */
  close(): Promise<void>;
}
