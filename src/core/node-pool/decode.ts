import type zlib from 'node:zlib';

interface Zlib {
  zlib: typeof zlib;
  zlibOptions: zlib.ZlibOptions;
  brotliOptions: zlib.BrotliOptions;
}
let loaded: Zlib | undefined;

/** node:zlib, loaded on the first compressed answer only, and the options fetch decodes with. */
function zlibModule(): Zlib {
  if (loaded === undefined) {
    const zlib = process.getBuiltinModule('node:zlib');
    const { Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH } = zlib.constants;
    // Lenient like fetch (undici, browsers): a stream cut short after whole blocks still
    // yields what arrived instead of failing with "unexpected end of file".
    loaded = {
      zlib,
      zlibOptions: { flush: Z_SYNC_FLUSH, finishFlush: Z_SYNC_FLUSH },
      brotliOptions: { flush: BROTLI_OPERATION_FLUSH, finishFlush: BROTLI_OPERATION_FLUSH },
    };
  }
  return loaded;
}

/** Bodies up to this size are decoded at once on the main thread; larger ones in the pool. */
const SYNC_LIMIT = 16 * 1024;

type Coding = 'gzip' | 'deflate' | 'br';

/**
 * The codings to undo, last applied first, or undefined when one is unknown: then the body is
 * handed over as it came, as fetch does.
 */
export function codingsToUndo(contentEncoding: string): Coding[] | undefined {
  const codings: Coding[] = [];
  for (const part of contentEncoding.split(',')) {
    const coding = part.trim().toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') codings.unshift('gzip');
    else if (coding === 'deflate') codings.unshift('deflate');
    else if (coding === 'br') codings.unshift('br');
    else if (coding !== '' && coding !== 'identity') return undefined;
  }
  return codings;
}

/** Undoes each coding in turn. */
export async function decode(body: Buffer, codings: Coding[]): Promise<Buffer> {
  let bytes = body;
  for (const coding of codings) {
    if (bytes.length === 0) return bytes;
    bytes =
      bytes.length <= SYNC_LIMIT ? decodeSync(bytes, coding) : await decodeAsync(bytes, coding);
  }
  return bytes;
}

function decodeSync(bytes: Buffer, coding: Coding): Buffer {
  const { zlib, zlibOptions, brotliOptions } = zlibModule();
  if (coding === 'gzip') return zlib.gunzipSync(bytes, zlibOptions);
  if (coding === 'br') return zlib.brotliDecompressSync(bytes, brotliOptions);
  return isZlibWrapped(bytes)
    ? zlib.inflateSync(bytes, zlibOptions)
    : zlib.inflateRawSync(bytes, zlibOptions);
}

function decodeAsync(bytes: Buffer, coding: Coding): Promise<Buffer> {
  const { zlib, zlibOptions, brotliOptions } = zlibModule();
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') zlib.gunzip(bytes, zlibOptions, done);
    else if (coding === 'br') zlib.brotliDecompress(bytes, brotliOptions, done);
    else if (isZlibWrapped(bytes)) zlib.inflate(bytes, zlibOptions, done);
    else zlib.inflateRaw(bytes, zlibOptions, done);
  });
}

/**
 * "deflate" means zlib-wrapped data (RFC 9110) but some servers send raw deflate; like
 * undici, look at the first byte (compression method 8 in its low nibble) to tell them apart.
 */
function isZlibWrapped(bytes: Buffer): boolean {
  return ((bytes[0] ?? 0) & 0x0f) === 0x08;
}
