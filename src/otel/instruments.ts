import type { Attributes, Histogram, MeterProvider } from '@opentelemetry/api';
import type { AttemptTrace } from 'momo-partner-sdk';
import { version } from '../../package.json';
import {
  ATTR,
  clientError,
  errorTypeOf,
  type Outcome,
  type Server,
  serverAttributes,
} from './attributes';

/** Starts an attempt's clock; `ended` hears the outcome once the duration is recorded. */
export type MeasureAttempt = (ended: ((outcome: Outcome) => void) | undefined) => AttemptTrace;

/** The instrumentation scope every span and metric of the SDK is recorded under. */
export const SCOPE = { name: 'momo-partner-sdk', version } as const;

/** The conventions' advised bucket bounds for HTTP durations, in seconds. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/**
 * The SDK's instruments, made on first use: with the global meter provider, a provider
 * registered after `otel()` (but before the first call) is the one used.
 */
export class Instruments {
  readonly #provider: () => MeterProvider;
  #duration: Histogram | undefined;
  /**
   * Attribute sets by server, method and outcome: built once, and found without building a
   * key string per attempt (servers are the objects `serverOf` keeps).
   */
  readonly #attributeSets = new WeakMap<Server, Map<string, Map<number | string, Attributes>>>();
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

  /** Times the attempts of one call to `server`. */
  attempts(method: string, server: Server | undefined): MeasureAttempt {
    return (ended) => {
      const started = performance.now();
      return {
        end: (outcome) => {
          const seconds = (performance.now() - started) / 1000;
          const errorType = errorTypeOf(outcome, clientError);
          this.duration.record(
            seconds,
            this.#attributes(method, server, outcome.status, errorType),
          );
          ended?.(outcome);
        },
      };
    };
  }

  #attributes(
    method: string,
    server: Server | undefined,
    status: number | undefined,
    errorType: string | undefined,
  ): Attributes {
    let byMethod = this.#attributeSets.get(server ?? this.#noServer);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#attributeSets.set(server ?? this.#noServer, byMethod);
    }
    let byOutcome = byMethod.get(method);
    if (byOutcome === undefined) {
      if (byMethod.size >= 16) byMethod.clear(); // bounded, whatever a caller passes
      byOutcome = new Map();
      byMethod.set(method, byOutcome);
    }
    const key = errorType === undefined ? (status ?? -1) : `${status} ${errorType}`;
    let attributes = byOutcome.get(key);
    if (attributes === undefined) {
      attributes = { [ATTR.method]: method, ...serverAttributes(server) };
      if (status !== undefined) attributes[ATTR.status] = status;
      if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
      if (byOutcome.size >= 256) byOutcome.clear(); // bounded
      byOutcome.set(key, attributes);
    }
    return attributes;
  }
}
