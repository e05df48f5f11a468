/**
 * The one owner of reference ids: the caller's, when given, or a new UUID v4. Chosen
 * once per call, before anything is sent, and reused by every attempt.
 */
export function chooseReferenceId(given: unknown): string {
  return typeof given === 'string' ? given : newUuid();
}

/**
 * A random UUID v4: the platform's `crypto.randomUUID()` (Node, Deno, Bun, browsers on
 * https), else one built from `crypto.getRandomValues` (a browser page on plain http),
 * as the `uuid` package does, without carrying it in the main entry.
 */
function newUuid(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
