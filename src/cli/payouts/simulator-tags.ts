import type { MomoClientOptions } from '../../core/options';
import { type TagOf, taggingFetch } from '../../testing/tagging';

/**
 * The client options that show a batch's rows on a simulator's page (docs/simulator.md):
 * against a plain-http base URL (the simulator; a real provider is https only), a fetch
 * that sends each row's journal tag once the server has said it is the simulator. Against
 * https: nothing, the client's own transport unchanged.
 */
export function simulatorTags(baseUrl: string, tagOf: TagOf): Partial<MomoClientOptions> {
  if (new URL(baseUrl).protocol !== 'http:') return {};
  return { fetch: taggingFetch((input, init) => globalThis.fetch(input, init), tagOf) };
}
