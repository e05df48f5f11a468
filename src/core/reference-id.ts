import { v4 as uuidv4 } from 'uuid';

/**
 * The one owner of reference ids: the caller's, when given, or a new UUID v4. Chosen
 * once per call, before anything is sent, and reused by every attempt.
 */
export function chooseReferenceId(given: unknown): string {
  return typeof given === 'string' ? given : uuidv4();
}

/**
 * Options with the reference id fixed up front, so that the caller can track the
 * operation before the request leaves (malformed options pass through: the transport
 * reports them as a ValidationError).
 */
export function withReferenceId<O extends { referenceId?: string | undefined }>(
  options: O | undefined,
): { options: O | undefined; referenceId: string | undefined } {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    return { options, referenceId: undefined };
  }
  const referenceId: unknown = options?.referenceId ?? chooseReferenceId(undefined);
  return {
    options: { ...options, referenceId } as O,
    referenceId: typeof referenceId === 'string' ? referenceId : undefined,
  };
}

/**
 * The key a reference id is stored and compared by: UUIDs compare case-insensitively, so
 * `ABC…` and `abc…` name one operation in every map, journal and token.
 */
export function referenceKey(referenceId: string): string {
  return referenceId.toLowerCase();
}
