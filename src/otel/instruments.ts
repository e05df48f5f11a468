import type { Attributes, Histogram, MeterProvider } from '@opentelemetry/api';
import { version } from '../../package.json';
import { ATTR, type Server, serverAttributes } from './attributes';

/** The instrumentation scope every span and metric of the SDK is recorded under. */
export const SCOPE = { name: 'momo-partner-sdk', version } as const;

/** The conventions' advised bucket bounds for HTTP durations, in seconds. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * The attribute sets of the duration records of one method on one server, by outcome:
 * each built once and handed to every record alike (a call finds its sets once, an
 * attempt by its status alone).
 */
export class DurationAttributes {
  readonly #method: string;
  readonly #server: Server | undefined;
  readonly #byOutcome = new Map<number | string, Attributes>();

  constructor(method: string, server: Server | undefined) {
    this.#method = method;
    this.#server = server;
  }

  of(status: number | undefined, errorType: string | undefined): Attributes {
    const key = errorType === undefined ? (status ?? -1) : `${status} ${errorType}`;
    let attributes = this.#byOutcome.get(key);
    if (attributes === undefined) {
      attributes = { [ATTR.method]: this.#method, ...serverAttributes(this.#server) };
      if (status !== undefined) attributes[ATTR.status] = status;
      if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
      if (this.#byOutcome.size >= 256) this.#byOutcome.clear(); // bounded
      this.#byOutcome.set(key, attributes);
    }
    return attributes;
  }
}

/**
 * The SDK's instruments, made on first use: with the global meter provider, a provider
 * registered after `otel()` (but before the first call) is the one used.
 */
export class Instruments {
  readonly #provider: () => MeterProvider;
  #duration: Histogram | undefined;
  /** Attribute sets by server and method (servers are the objects `serverOf` keeps). */
  readonly #sets = new WeakMap<Server, Map<string, DurationAttributes>>();
  readonly #noServer: Server = { address: '', port: 0 };

  constructor(provider: () => MeterProvider) {
    this.#provider = provider;
  }

  /** `http.client.request.duration`: one record per attempt, in seconds. */
  get duration(): Histogram {
    if (this.#duration === undefined) {
      const meter = this.#provider().getMeter(SCOPE.name, SCOPE.version);
      this.#duration = meter.createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests (each attempt).',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    }
    return this.#duration;
  }

  /** The duration records' attribute sets of `method` calls to `server`. */
  attributesOf(method: string, server: Server | undefined): DurationAttributes {
    const slot = server ?? this.#noServer;
    let byMethod = this.#sets.get(slot);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#sets.set(slot, byMethod);
    }
    let sets = byMethod.get(method);
    if (sets === undefined) {
      if (byMethod.size >= 16) byMethod.clear(); // bounded, whatever a caller passes
      sets = new DurationAttributes(method, server);
      byMethod.set(method, sets);
    }
    return sets;
  }
}
