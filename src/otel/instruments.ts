import type { Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import { version } from '../../package.json';

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

  constructor(provider: () => MeterProvider) {
    this.#provider = provider;
  }

  /** `http.client.request.duration`: one record per attempt, in seconds. */
  get duration(): Histogram {
    if (this.#duration === undefined) {
      const meter: Meter = this.#provider().getMeter(SCOPE.name, SCOPE.version);
      this.#duration = meter.createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests (each attempt).',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    }
    return this.#duration;
  }
}
