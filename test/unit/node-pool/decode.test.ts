import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exchange, useLoopbacks } from './loopback';

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

describe('node pool: compressed answers', () => {
  it.each(Object.keys(encoders))('asks for and decodes %s', async (coding) => {
    const server = await compressing();
    const answer = await loopbacks.pool().send(exchange(`${server.url}/?coding=${coding}`));
    expect(answer.body).toEqual(JSON.parse(json));
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a large %s body', async (coding) => {
    const server = await compressing();
    const answer = await loopbacks.pool().send(exchange(`${server.url}/?coding=${coding}&large`));
    expect(answer.body).toEqual(JSON.parse(large));
  });

  it('decodes raw deflate (no zlib wrapper), as fetch does', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate' });
      res.end(zlib.deflateRawSync(json));
    });
    expect((await loopbacks.pool().send(exchange(`${server.url}/`))).body).toEqual(
      JSON.parse(json),
    );
  });

  it('undoes stacked codings, last applied first', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'deflate, gzip' });
      res.end(zlib.gzipSync(zlib.deflateSync(json)));
    });
    expect((await loopbacks.pool().send(exchange(`${server.url}/`))).body).toEqual(
      JSON.parse(json),
    );
  });

  it('hands over a body in an unknown coding untouched', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd-ish' });
      res.end('opaque bytes');
    });
    const answer = await loopbacks.pool().send(exchange(`${server.url}/`));
    expect(answer.body).toBe('opaque bytes');
    expect(answer.headers.get('content-encoding')).toBe('zstd-ish');
  });

  it('keeps a caller-chosen accept-encoding (identity)', async () => {
    const server = await compressing();
    const headers = { 'accept-encoding': 'identity' };
    await loopbacks.pool().send(exchange(`${server.url}/?coding=identity`, { headers }));
    expect(server.requests[0]?.headers['accept-encoding']).toBe('identity');
  });

  it("rejects a corrupt compressed body with zlib's error and code", async () => {
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end('definitely not gzip');
    });
    const error = await loopbacks
      .pool()
      .send(exchange(`${server.url}/`))
      .then(
        () => undefined,
        (e: unknown) => e as Error & { code: string },
      );
    expect(error?.code).toBe('Z_DATA_ERROR');
  });
});
