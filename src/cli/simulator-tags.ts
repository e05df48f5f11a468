import { isLoopback } from '../core/url';
import type { ParsedCommand } from './args';
import { connectionFromEnv } from './env';
import { type Io, UsageError } from './output';

/**
 * Whether `payouts` sets its client up for the simulator (client option `simulatorTags`:
 * each row's `<batch id>/<key>` goes along, so that the simulator's page shows the batch).
 * `MOMO_SIMULATOR_TAGS=1` or `0` says so outright; unset, only a plain-http loopback base
 * URL (`npx momo-partner-sdk simulator` listens on `http://127.0.0.1:4010`) is taken for the
 * simulator. Decided from the configuration before anything is sent, never from an
 * answer: a provider (https, or a gateway on another host) never gets a tag.
 */
export function simulatorTagsFromEnv(io: Io, args: ParsedCommand): { simulatorTags: boolean } {
  const said = io.env.MOMO_SIMULATOR_TAGS;
  if (said === '1') return { simulatorTags: true };
  if (said === '0') return { simulatorTags: false };
  if (said !== undefined && said !== '') {
    throw new UsageError(`MOMO_SIMULATOR_TAGS must be 1 or 0, not ${JSON.stringify(said)}.`);
  }
  const { baseUrl } = connectionFromEnv(io, args);
  try {
    const url = new URL(baseUrl);
    return { simulatorTags: url.protocol === 'http:' && isLoopback(url.hostname) };
  } catch {
    return { simulatorTags: false }; // the client refuses the URL itself
  }
}
