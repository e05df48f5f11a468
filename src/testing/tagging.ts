import { TAG_HEADER } from '../core/simulator-tag';

// How a tag reaches the simulator: core/simulator-tag.ts (a client sends its creating
// calls' tags once its first answer said the server is the simulator).

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
