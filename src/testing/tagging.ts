/**
 * How the simulator learns whose a transaction is (docs/simulator.md, "Batches on the
 * page"). The caller tag (`tag` option: a batch's `<batch id>/<item key>`) is recorded in
 * the client's journal and never sent to the provider. `sim.client()` and the CLI's
 * `payouts` send it in `X-Momo-Simulator-Tag` to a server that said it is the simulator
 * (its answers carry `X-Momo-Simulator`); a real provider says no such thing, so it never
 * gets the header.
 */

/** On every answer of the simulated API: "this server is the simulator". */
export const SIMULATOR_HEADER = 'x-momo-simulator';
/** On a creating request to the simulator: the call's journal tag, percent-encoded. */
export const TAG_HEADER = 'x-momo-simulator-tag';

/** The journal tag of a creating call, by its reference id (`momo.journal.get(id)?.tag`). */
export type TagOf = (referenceId: string) => Promise<string | undefined>;

type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that adds each creating call's journal tag, but only for an origin whose answers
 * carried {@link SIMULATOR_HEADER} (the first call of a client is its token request).
 */
export function taggingFetch(inner: Fetch, tagOf: TagOf): typeof fetch {
  const simulators = new Set<string>();
  const tagging = async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const headers = new Headers(init?.headers ?? request?.headers);
    const referenceId = headers.get('x-reference-id') ?? headers.get('x-correlationid');
    const tag = referenceId && simulators.has(url.origin) ? await tagOf(referenceId) : undefined;
    let sent: [Request | string | URL, RequestInit | undefined] = [input, init];
    if (tag !== undefined) {
      headers.set(TAG_HEADER, encodeURIComponent(tag));
      // ky hands over a Request and options without headers; anyone else, init's headers.
      sent =
        request && !init?.headers
          ? [new Request(request, { headers }), init]
          : [input, { ...init, headers }];
    }
    const response = await inner(...sent);
    if (response.headers.has(SIMULATOR_HEADER)) simulators.add(url.origin);
    return response;
  };
  return tagging as typeof fetch;
}

/** The tag a creating request carried, decoded; undefined when none (or not decodable). */
export function requestTag(headers: Headers): string | undefined {
  const raw = headers.get(TAG_HEADER);
  if (raw === null || raw === '') return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** `{ tag }` for a stored transaction, when its creating request carried one. */
export function tagField(headers: Headers): { tag?: string } {
  const tag = requestTag(headers);
  return tag === undefined ? {} : { tag };
}

/**
 * The batch and item a tag names: `<batch id>/<item key>`, split at the first `/`, when
 * it is not merely the body's `externalId` (the journal's default tag).
 */
export function batchItemOf(
  tag: string | undefined,
  externalId: unknown,
): { batch: string; key: string } | undefined {
  if (tag === undefined || tag === externalId) return undefined;
  const slash = tag.indexOf('/');
  if (slash <= 0 || slash === tag.length - 1) return undefined;
  return { batch: tag.slice(0, slash), key: tag.slice(slash + 1) };
}
