import { describe, expect, it } from 'vitest';
import { answer, exchange, useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

describe('node pool: requests', () => {
  it('sends method, path, query and headers, and adds what fetch adds', async () => {
    const server = await loopbacks.server(
      answer(200, { 'content-type': 'application/json' }, '{}'),
    );
    const answered = await loopbacks.pool().send(
      exchange(`${server.url}/v1_0/account/balance?currency=EUR#ignored`, {
        headers: { Authorization: 'Bearer t', 'X-Target-Environment': 'sandbox' },
      }),
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({});
    const [seen] = server.requests;
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe('/v1_0/account/balance?currency=EUR');
    expect(seen?.headers).toMatchObject({
      host: server.url.slice('http://'.length),
      authorization: 'Bearer t',
      'x-target-environment': 'sandbox',
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': 'node',
    });
    expect(seen?.headers['content-length']).toBeUndefined();
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
  });

  it('sends the body byte for byte, with its Content-Length (a given one is dropped)', async () => {
    const server = await loopbacks.server(answer(202));
    const raw = JSON.stringify({ payerMessage: 'Merci, ça marche ✓ 💸', amount: '10' });
    const headers = { 'content-type': 'application/json', 'Content-Length': '3' };
    const sent = exchange(`${server.url}/deposit`, { method: 'POST', headers, body: raw });
    expect((await loopbacks.pool().send(sent)).status).toBe(202);
    const [seen] = server.requests;
    expect(seen?.body.equals(Buffer.from(raw, 'utf8'))).toBe(true);
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(raw)));
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it('frames a body-less POST with Content-Length: 0, never chunked', async () => {
    const server = await loopbacks.server(answer(202));
    await loopbacks.pool().send(exchange(`${server.url}/z`, { method: 'POST' }));
    expect(server.requests[0]?.headers['content-length']).toBe('0');
    expect(server.requests[0]?.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('node pool: answers', () => {
  it('returns UTF-8 bodies whole, whatever the chunking', async () => {
    const text = `{"name":"${'é✓💸'.repeat(5_000)}"}`;
    const bytes = Buffer.from(text, 'utf8');
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      // Split inside a multi-byte character, in several writes.
      res.write(bytes.subarray(0, 10_001));
      setTimeout(() => res.end(bytes.subarray(10_001)), 5);
    });
    const answered = await loopbacks.pool().send(exchange(`${server.url}/`));
    expect(answered.body).toEqual(JSON.parse(text));
  });

  it('reads repeated headers as Headers does (joined), names case-insensitive', async () => {
    const server = await loopbacks.server(
      answer(200, { 'x-foo': ['one', 'two'], 'X-Request-Id': 'r-1' }, ''),
    );
    const answered = await loopbacks.pool().send(exchange(`${server.url}/`));
    expect(answered.headers.get('x-foo')).toBe('one, two');
    expect(answered.headers.get('x-request-id')).toBe('r-1');
    const native = await globalThis.fetch(`${server.url}/`);
    expect([...answered.headers].filter(([name]) => name !== 'date')).toEqual(
      [...native.headers].filter(([name]) => name !== 'date'),
    );
  });

  it.each([204, 205, 304])('gives a %i no body', async (status) => {
    const server = await loopbacks.server(answer(status));
    const answered = await loopbacks.pool().send(exchange(`${server.url}/`));
    expect(answered.status).toBe(status);
    expect(answered.body).toBeUndefined();
  });

  it('returns a redirect as is, without following it', async () => {
    const server = await loopbacks.server(answer(302, { location: '/elsewhere' }, 'moved'));
    const answered = await loopbacks.pool().send(exchange(`${server.url}/start`));
    expect(answered.status).toBe(302);
    expect(answered.headers.get('location')).toBe('/elsewhere');
    expect(answered.body).toBe('moved');
    expect(server.requests.map((r) => r.url)).toEqual(['/start']);
  });
});

describe('node pool: failures reject with the network error and its code', () => {
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the call resolved'),
      (error: unknown) => error as NodeJS.ErrnoException,
    );

  it('rejects a refused connection with ECONNREFUSED', async () => {
    const server = await loopbacks.server(answer(200));
    const url = `${server.url}/`;
    await server.close();
    const error = await failure(loopbacks.pool().send(exchange(url)));
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('rejects a connection reset before any answer', async () => {
    const server = await loopbacks.server((req) => req.socket.destroy());
    const error = await failure(loopbacks.pool().send(exchange(`${server.url}/`)));
    expect(error.code).toBe('ECONNRESET');
  });

  it('rejects an answer cut off mid-body', async () => {
    const server = await loopbacks.server((req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only ten!!');
      setTimeout(() => req.socket.destroy(), 5);
    });
    const error = await failure(loopbacks.pool().send(exchange(`${server.url}/`)));
    expect(error.code).toBe('ECONNRESET');
  });

  it('rejects a scheme other than http and https', async () => {
    const error = await failure(loopbacks.pool().send(exchange('ftp://127.0.0.1/file')));
    expect(error).toBeInstanceOf(TypeError);
  });
});
