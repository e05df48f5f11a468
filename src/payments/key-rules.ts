/**
 * What a name of the partner's may be (docs/batches.md): a batch item's or an outbox intent's
 * key, and a batch id. At most 200 characters (UTF-16 code units, as `length` counts),
 * well-formed Unicode (no lone surrogate: UTF-8, which every store writes, turns each
 * into U+FFFD, so two different names would share one record), and no control character
 * (C0, DEL, C1: a NUL stops a PostgreSQL statement; none belongs in a name shown in
 * files, logs and the simulator's page). Checked before anything is read or written.
 */
export const MAX_NAME_LENGTH = 200;

/** A lone surrogate: with the `u` flag, a well-formed pair is one code point, never matched. */
const LONE_SURROGATE = /\p{Cs}/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` (a non-empty string) is no acceptable key or batch id, or undefined. */
export function nameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME_LENGTH) {
    return `must be at most ${MAX_NAME_LENGTH} characters (it has ${name.length})`;
  }
  if (LONE_SURROGATE.test(name)) {
    return 'must be well-formed Unicode (it holds a lone surrogate, half of a character)';
  }
  const control = CONTROL.exec(name);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `must not hold control characters (it holds U+${code} at position ${control.index})`;
  }
  return undefined;
}
