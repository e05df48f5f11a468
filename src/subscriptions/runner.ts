import { wakeableSleep } from '../payments/time';
import type { RunDueReport, SubscriptionRunner, SubscriptionRunnerOptions } from './types';

/**
 * A loop of passes, `intervalMs` (real time) apart, until `stop()`, which resolves once
 * the pass in flight has ended. A pass that throws (the store unreachable) is retried at
 * the next interval.
 */
export function startRunner(
  options: SubscriptionRunnerOptions,
  pass: (onCharge: SubscriptionRunnerOptions['onCharge']) => Promise<RunDueReport>,
): SubscriptionRunner {
  const intervalMs = options.intervalMs ?? 5_000;
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        const report = await pass(options.onCharge);
        options.onPass?.(report);
      } catch {
        // Tried again at the next interval.
      }
      if (stopped) break;
      const next = wakeableSleep(intervalMs);
      wake = next.wake;
      await next.done;
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
