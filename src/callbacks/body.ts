/**
 * Reading a callback body without letting the sender choose how much memory or time it
 * costs: a receiver is internet-facing, and a callback is a few hundred bytes.
 */

/** Callbacks are small; anything larger is not one. */
export const MAX_BODY_BYTES = 64 * 1024;

/** How long a sender may take to deliver its body, by default. */
export const DEFAULT_READ_TIMEOUT_MS = 10_000;

/** Why a body was not read: too large (413) or too slow (408). */
export type BodyRefusal = { status: 413; error: string } | { status: 408; error: string };

export const TOO_LARGE: BodyRefusal = { status: 413, error: 'body too large' };
export const TOO_SLOW: BodyRefusal = { status: 408, error: 'body not received in time' };

/** True when a declared Content-Length already exceeds the limit (nothing needs reading). */
export function declaredTooLarge(contentLength: string | null | undefined): boolean {
  return contentLength != null && Number(contentLength) > MAX_BODY_BYTES;
}

/**
 * The text of a Fetch `Request` body, read chunk by chunk with a byte counter: past the
 * limit, or past the deadline, the stream is cancelled and nothing more is held.
 */
export async function readRequestBody(
  request: Request,
  readTimeoutMs: number,
): Promise<string | BodyRefusal> {
  if (declaredTooLarge(request.headers.get('content-length'))) return TOO_LARGE;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, readTimeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return TOO_SLOW;
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch {
    return timedOut ? TOO_SLOW : { status: 408, error: 'body not received' };
  } finally {
    clearTimeout(timer);
  }
  return decode(chunks);
}

/** UTF-8 text of the chunks (web APIs only: the main entry stays free of Node globals). */
export function decode(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * An already-parsed body (Express `req.body`) as text, or TOO_LARGE when its JSON form
 * exceeds the limit. A walk that stops at the limit comes first, so a huge parsed object
 * is refused without being serialised again.
 */
export function parsedBodyText(body: unknown): string | BodyRefusal {
  if (body instanceof Uint8Array) {
    return body.byteLength > MAX_BODY_BYTES ? TOO_LARGE : new TextDecoder().decode(body);
  }
  if (typeof body !== 'string' && !jsonSizeWithin(body, MAX_BODY_BYTES)) return TOO_LARGE;
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
  // UTF-8 takes at least one byte per UTF-16 unit: only a short text needs encoding.
  if (text.length > MAX_BODY_BYTES) return TOO_LARGE;
  return new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES ? TOO_LARGE : text;
}

/**
 * Whether `JSON.stringify(value)` may fit in `budget`: counts about its length (strings,
 * numbers, keys, brackets and separators; no escapes), stopping once past the budget.
 */
function jsonSizeWithin(value: unknown, budget: number): boolean {
  let used = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && used <= budget) {
    const item = stack.pop();
    if (typeof item === 'string') used += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'bigint') used += String(item).length;
    else if (typeof item !== 'object' || item === null) used += 4;
    else {
      used += 2;
      // Stops at the budget: a huge array or object is never walked (nor copied) whole;
      // a cycle keeps adding to the count, so it ends past the budget, never in a loop.
      if (Array.isArray(item)) {
        for (let i = 0; i < item.length && used <= budget; i++) {
          used += 1;
          stack.push(item[i]);
        }
      } else {
        for (const key in item) {
          used += key.length + 4;
          if (used > budget) return false;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    }
  }
  return used <= budget;
}
