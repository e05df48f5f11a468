import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

const json = JSON.stringify({ status: 'SUCCESSFUL', note: 'payé ✓', pad: 'x'.repeat(300) });
/** Large enough to be decoded off the main thread (over 16 KiB compressed). */
const large = JSON.stringify({
  items: Array.from({ length: 4_000 }, (_, i) => ({ i, id: crypto.randomUUID() })),
});

const encoders: Record<string, (text: string) => Buffer> = {
  gzip: (text) => zlib.gzipSync(text),
  'x-gzip': (text) => zlib.gzipSync(text),
  deflate: (text) => zlib.deflateSync(text),
  br: (text) =>
    zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
};

/** A server that compresses every answer with the coding named in the query. */
async function compressing() {
  return loopbacks.server((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const coding = url.searchParams.get('coding') ?? 'gzip';
    const text = url.searchParams.has('large') ? large : json;
    const body = encoders[coding]?.(text) ?? Buffer.from(text);
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
    res.end(body);
  });
}

describe('node fetch: compressed answers', () => {
  it.each(Object.keys(encoders))('asks for and decodes %s', async (coding) => {
    const server = await compressing();
    const response = await loopbacks.fetch()(`${server.url}/?coding=${coding}`);
    expect(await response.text()).toBe(json);
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a large %s body', async (coding) => {
    const server = await compressing();
    const response = await loopbacks.fetch()(`${server.url}/?coding=${coding}&large`);
    expect(await response.text()).toBe(large);
  });

  it('decodes raw deflate (no zlib wrapper), as fetch does', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate' });
      res.end(zlib.deflateRawSync(json));
    });
    expect(await (await loopbacks.fetch()(`${server.url}/`)).text()).toBe(json);
  });

  it('undoes stacked codings, last applied first', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate, gzip' });
      res.end(zlib.gzipSync(zlib.deflateSync(json)));
    });
    expect(await (await loopbacks.fetch()(`${server.url}/`)).text()).toBe(json);
  });

  it('hands over a body in an unknown coding untouched', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd-ish' });
      res.end('opaque bytes');
    });
    const response = await loopbacks.fetch()(`${server.url}/`);
    expect(await response.text()).toBe('opaque bytes');
    expect(response.headers.get('content-encoding')).toBe('zstd-ish');
  });

  it('keeps a caller-chosen accept-encoding (identity)', async () => {
    const server = await compressing();
    await loopbacks.fetch()(`${server.url}/?coding=identity`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(server.requests[0]?.headers['accept-encoding']).toBe('identity');
  });

  it('rejects a corrupt compressed body with TypeError("fetch failed")', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end('definitely not gzip');
    });
    const error = await loopbacks
      .fetch()(`${server.url}/`)
      .then(
        () => undefined,
        (e: unknown) => e as TypeError & { cause: { code: string } },
      );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe('fetch failed');
    expect(error?.cause.code).toBe('Z_DATA_ERROR');
  });
});
