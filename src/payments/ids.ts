import { nodeCrypto } from '../core/node-pool/crypto';
import { chooseReferenceId } from '../core/reference-id';
import { ValidationError } from '../errors';

/**
 * The kernel's one source of reference ids and fingerprints. Where the runtime has Node's
 * crypto, its synchronous HMAC and hash: no thread-pool round trip and no promise per step
 * (a 100,000-row file derives 100,000 ids and fingerprints). Elsewhere (browsers, edge
 * runtimes) Web Crypto, with the same bytes out. The main entry imports no Node module.
 */
const subtle = () => globalThis.crypto.subtle;
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Shortest secret accepted: a short one would let the ids be guessed from the keys. */
export const MIN_SECRET_LENGTH = 16;

/** Checks a batch secret (never echoing it). */
export function checkSecret(secret: unknown): asserts secret is string | undefined {
  if (secret === undefined) return;
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new ValidationError([
      { path: 'secret', message: `must be a string of at least ${MIN_SECRET_LENGTH} characters` },
    ]);
  }
}

/** HMAC-SHA256 keys, imported once per secret. */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = subtle().importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    if (keys.size > 16) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/**
 * The reference id of item `key` of batch `batchId`: HMAC-SHA256(secret,
 * `momo-batch:v1` + JSON [batchId, key]), its first 16 bytes formatted as a UUID v4
 * (version nibble 4, variant 10xx). The same inputs give the same id on any machine;
 * without the secret it cannot be told from a random one. `domain` keeps other drivers'
 * ids apart from a batch's (subscriptions: `momo-subscription:v1`).
 */
export async function derivedReferenceId(
  secret: string,
  batchId: string,
  key: string,
  domain = 'momo-batch:v1',
): Promise<string> {
  const text = `${domain}${JSON.stringify([batchId, key])}`;
  const node = nodeCrypto();
  if (node) return formatUuidV4(node.createHmac('sha256', secret).update(text, 'utf8').digest());
  const mac = new Uint8Array(await subtle().sign('HMAC', await hmacKey(secret), utf8(text)));
  return formatUuidV4(mac);
}

/** 16 bytes (the first of `bytes`) as a UUID v4. */
export function formatUuidV4(bytes: Uint8Array): string {
  const b = bytes.slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = toHex(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A random reference id (recorded in the store: the only place it can be found again),
 * from the core's one generator.
 */
export function randomReferenceId(): string {
  return chooseReferenceId(undefined);
}

/**
 * The name a driver's process takes as a claim owner in a store (a batch run, an outbox
 * relay, a subscription pass): `<driver>-<random UUID>`, new for each run, so a store's
 * row tells which kind of driver holds it and no two processes share a name.
 */
export function ownerId(driver: 'batch' | 'relay' | 'subscription'): string {
  return `${driver}-${randomReferenceId()}`;
}

/** SHA-256 (hex) of the operation and the body's canonical JSON (keys sorted, at every depth). */
export async function fingerprint(operation: string, body: unknown): Promise<string> {
  const text = JSON.stringify([operation, canonical(body)]);
  const node = nodeCrypto();
  if (node) return node.createHash('sha256').update(text, 'utf8').digest('hex');
  const digest = new Uint8Array(await subtle().digest('SHA-256', utf8(text)));
  return toHex(digest);
}

/** Byte → two hex digits, made once: a row's fingerprint makes no 32 throwaway strings. */
const HEX = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, '0'));

/** Joined (a flat string), not concatenated (a rope of 32 parts, kept per row). */
function toHex(bytes: Uint8Array): string {
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = HEX[bytes[i] as number] as string;
  return parts.join('');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) {
    sorted[name] = canonical((value as Record<string, unknown>)[name]);
  }
  return sorted;
}
