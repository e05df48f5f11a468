/**
 * The callback token: what lets the handler tell a callback the service sent, to the URL
 * the SDK gave it, from one anybody could send. The service signs nothing; the SDK puts a
 * per-operation token in the callback URL instead:
 * `hex(HMAC-SHA256(callbackSecret, "momo-callback:" + lower-case referenceId))`. Derived,
 * not stored, so it survives restarts and every instance with the secret can check it.
 * Written with web APIs only (synchronous, so that a call's URL is fixed when it is
 * planned): the main entry stays free of Node globals.
 */

import { referenceKey } from './reference-id';

/** The placeholder a callback URL template may carry; appended as a query parameter otherwise. */
export const TOKEN_PLACEHOLDER = '{callbackToken}';
/** The query parameter the token travels in when the template does not place it. */
export const TOKEN_PARAMETER = 'callbackToken';

/** The token of one operation. */
export function callbackToken(secret: string, referenceId: string): string {
  const mac = hmacSha256(utf8(secret), utf8(`momo-callback:${referenceKey(referenceId)}`));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Whether `given` is the token of `referenceId`, compared in constant time. */
export function tokenMatches(secret: string, referenceId: string, given: string): boolean {
  const expected = callbackToken(secret, referenceId);
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= expected.charCodeAt(i) ^ given.charCodeAt(i % Math.max(1, given.length));
  }
  return diff === 0;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** The first `count` primes, whose roots give SHA-256's constants. */
function primes(count: number): number[] {
  const found: number[] = [];
  for (let n = 2; found.length < count; n++) if (found.every((p) => n % p)) found.push(n);
  return found;
}

/** The first 32 bits of the fractional part of `x`. */
const fraction32 = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;

// FIPS 180-4 defines its constants as the first 32 fractional bits of the cube roots (the
// 64 round constants) and square roots (the initial hash) of the first primes: computed
// once here rather than shipped as 72 literals (661 B gzip off the main entry). Every
// one lies at least 0.005 units of its last bit away from a rounding boundary, far beyond
// any engine's error in Math.cbrt or Math.sqrt; the callback tests compare the token
// against node:crypto's HMAC.
const PRIMES = /* @__PURE__ */ primes(64);
const K = /* @__PURE__ */ Uint32Array.from(PRIMES, (p) => fraction32(Math.cbrt(p)));
const INITIAL_HASH = /* @__PURE__ */ Uint32Array.from(PRIMES.slice(0, 8), (p) =>
  fraction32(Math.sqrt(p)),
);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 (FIPS 180-4) of a short message. */
function sha256(data: Uint8Array): Uint8Array {
  const h = INITIAL_HASH.slice();
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(padded.length - 4, (data.length << 3) >>> 0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, k] = h as unknown as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const t1 =
        (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    const round = [a, b, c, d, e, f, g, k];
    for (let i = 0; i < 8; i++) h[i] = h[i]! + round[i]!;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}
