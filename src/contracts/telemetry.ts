/**
 * The telemetry port: what the SDK tells a tracing integration, and nothing more.
 * `momo-partner-sdk/otel` implements it; the core only calls it. When the client option
 * `telemetry` is not set, no method here is reached (zero cost: one `undefined` check
 * per call). Nothing secret or personal is ever passed: no header, no body, no token,
 * no MSISDN (`url` keeps every path parameter but the reference id as its `{name}`).
 */
export interface Telemetry {
  /** One logical call, all its attempts included (the token request is one too). */
  call(start: CallStart): CallTrace;
  /** One `wait()`, from its start to its final result (its lookups are counted, not spanned). */
  wait(start: WaitStart): WaitTrace;
  /** One request to the callback handler (a SERVER span). */
  callback(start: CallbackStart): CallbackTrace;
}

/** What the telemetry port is told when a call starts. */
export interface CallStart {
  /** `product.method`, e.g. `disbursement.deposit`; `disbursement.token` for a token request. */
  operation: string;
  method: string;
  /** The path template, e.g. `/disbursement/v1_0/deposit/{referenceId}`. */
  pathTemplate: string;
  /** The full URL: no credentials, `{referenceId}` filled, every other parameter left as `{name}`. */
  url: string;
  referenceId: string | undefined;
  /** Set when the call is a lookup made by a `wait()`: counted there, no span of its own. */
  wait?: WaitTrace | undefined;
}

/** One call, from its first attempt to its end (a span, for `momo-partner-sdk/otel`). */
export interface CallTrace {
  /** Attempt `n` (1 for the first) is about to be sent. */
  attempt(n: number): AttemptTrace;
  /** The call is over: its final answer's status, or the error it threw (with its status). */
  end(outcome: { status?: number | undefined; error?: unknown }): void;
}

/** One HTTP attempt of a call. */
export interface AttemptTrace {
  /**
   * The attempt is over: the HTTP status it got (an error status alone, as the semantic
   * conventions' error.type), or the error when no readable answer came (a timeout...).
   */
  end(outcome: { status?: number | undefined; error?: unknown }): void;
}

/** What the telemetry port is told when a `wait()` starts. */
export interface WaitStart {
  operation: string;
  referenceId: string;
}

/** One `wait()`, its lookups and its end. */
export interface WaitTrace {
  /** A lookup made by this wait; its outcome as for an attempt. */
  lookup(outcome: { status?: number | undefined; error?: unknown }): void;
  /** The wait is over: the final status it resolved with, or the error it threw. */
  end(outcome: { status?: string | undefined; error?: unknown }): void;
}

/** What the telemetry port is told when a callback arrives. */
export interface CallbackStart {
  method: string;
  /** The route as the partner mounted it, when known (else the handler's own template). */
  route: string;
  /** The reference id the callback names, once found. */
  referenceId?: string | undefined;
}

/** One callback received by the handler. */
export interface CallbackTrace {
  /** The callback was answered: the HTTP status sent back, or the error. */
  end(outcome: { status: number; referenceId?: string | undefined; error?: unknown }): void;
}
