import { describe, expect, it } from 'vitest';
import { answer, useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

describe('node fetch: requests', () => {
  it('reads method, URL and headers from a Request (as ky passes it) and adds what fetch adds', async () => {
    const server = await loopbacks.server(
      answer(200, { 'content-type': 'application/json' }, '{}'),
    );
    const fetch = loopbacks.fetch();
    const response = await fetch(
      new Request(`${server.url}/v1_0/account/balance?currency=EUR#ignored`, {
        headers: { Authorization: 'Bearer t', 'X-Target-Environment': 'sandbox' },
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
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

  it('sends momoRawBody byte for byte without reading the Request body', async () => {
    const server = await loopbacks.server(answer(202));
    const fetch = loopbacks.fetch();
    const raw = JSON.stringify({ payerMessage: 'Merci, ça marche ✓ 💸', amount: '10' });
    const request = new Request(`${server.url}/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'this stream must stay unread',
    });
    const response = await fetch(request, { momoRawBody: raw });
    expect(response.status).toBe(202);
    expect(request.bodyUsed).toBe(false);
    const [seen] = server.requests;
    expect(seen?.body.equals(Buffer.from(raw, 'utf8'))).toBe(true);
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(raw)));
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it("reads a Request's own body when no raw body is given", async () => {
    const server = await loopbacks.server(answer(201));
    const fetch = loopbacks.fetch();
    const json = JSON.stringify({ note: 'Ünïcödé ✓' });
    await fetch(new Request(`${server.url}/x`, { method: 'PUT', body: json }));
    expect(server.requests[0]?.body.toString('utf8')).toBe(json);
    expect(server.requests[0]?.headers['content-length']).toBe(String(Buffer.byteLength(json)));
  });

  it('takes a URL string with init (method, headers, body) like fetch', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const fetch = loopbacks.fetch();
    const response = await fetch(`${server.url}/y`, {
      method: 'POST',
      headers: { 'x-one': '1' },
      body: new Uint8Array([0, 1, 2, 255]),
    });
    expect(await response.text()).toBe('ok');
    const [seen] = server.requests;
    expect([...(seen?.body ?? [])]).toEqual([0, 1, 2, 255]);
    expect(seen?.headers['x-one']).toBe('1');
  });

  it('frames a body-less POST with Content-Length: 0, never chunked', async () => {
    const server = await loopbacks.server(answer(202));
    await loopbacks.fetch()(new Request(`${server.url}/z`, { method: 'POST' }));
    expect(server.requests[0]?.headers['content-length']).toBe('0');
    expect(server.requests[0]?.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('node fetch: responses', () => {
  it('returns UTF-8 bodies whole, whatever the chunking', async () => {
    const text = `{"name":"${'é✓💸'.repeat(5_000)}"}`;
    const bytes = Buffer.from(text, 'utf8');
    const server = await loopbacks.server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      // Split inside a multi-byte character, in several writes.
      res.write(bytes.subarray(0, 10_001));
      setTimeout(() => res.end(bytes.subarray(10_001)), 5);
    });
    const response = await loopbacks.fetch()(`${server.url}/`);
    expect(await response.text()).toBe(text);
  });

  it('keeps repeated response headers as fetch does (append)', async () => {
    const server = await loopbacks.server(
      answer(200, { 'set-cookie': ['a=1', 'b=2'], 'x-foo': ['one', 'two'] }, ''),
    );
    const response = await loopbacks.fetch()(`${server.url}/`);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-foo')).toBe('one, two');
    const native = await globalThis.fetch(`${server.url}/`);
    expect([...response.headers].filter(([name]) => name !== 'date')).toEqual(
      [...native.headers].filter(([name]) => name !== 'date'),
    );
  });

  it.each([204, 205, 304])('gives a %i a null body', async (status) => {
    const server = await loopbacks.server(answer(status));
    const response = await loopbacks.fetch()(`${server.url}/`);
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('gives a HEAD answer a null body, and an empty 202 an empty one (as fetch)', async () => {
    const server = await loopbacks.server(answer(200, { 'content-length': '12' }));
    const fetch = loopbacks.fetch();
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).body).toBeNull();
    const empty = await loopbacks.server(answer(202));
    const accepted = await fetch(`${empty.url}/`, { method: 'POST' });
    expect(accepted.body).not.toBeNull();
    expect(await accepted.text()).toBe('');
  });

  it('returns a redirect as is, without following it', async () => {
    const server = await loopbacks.server(answer(302, { location: '/elsewhere' }, 'moved'));
    const response = await loopbacks.fetch()(`${server.url}/start`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(await response.text()).toBe('moved');
    expect(server.requests.map((r) => r.url)).toEqual(['/start']);
  });

  it('keeps the status text', async () => {
    const server = await loopbacks.server((_req, res) => {
      res.statusMessage = 'Quite Unavailable';
      res.writeHead(503).end();
    });
    const response = await loopbacks.fetch()(`${server.url}/`);
    expect([response.status, response.statusText]).toEqual([503, 'Quite Unavailable']);
  });
});

describe('node fetch: failures reject like fetch', () => {
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the call resolved'),
      (error: unknown) => error as TypeError & { cause: NodeJS.ErrnoException },
    );

  it('rejects a refused connection with TypeError("fetch failed") and the cause and its code', async () => {
    const server = await loopbacks.server(answer(200));
    const url = `${server.url}/`;
    await server.close();
    const ours = await failure(loopbacks.fetch()(url));
    const native = await failure(globalThis.fetch(url));
    expect(ours).toBeInstanceOf(TypeError);
    expect(ours.message).toBe(native.message);
    expect(ours.cause.code).toBe('ECONNREFUSED');
    expect(ours.cause.code).toBe(native.cause.code);
    expect(ours.cause).toBeInstanceOf(Error);
  });

  it('rejects a connection reset before any answer', async () => {
    const server = await loopbacks.server((req) => req.socket.destroy());
    const error = await failure(loopbacks.fetch()(`${server.url}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause.code).toBe('ECONNRESET');
  });

  it('rejects an answer cut off mid-body', async () => {
    const server = await loopbacks.server((req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only ten!!');
      setTimeout(() => req.socket.destroy(), 5);
    });
    const error = await failure(loopbacks.fetch()(`${server.url}/`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause.code).toBe('ECONNRESET');
  });

  it('rejects a scheme other than http and https', async () => {
    const error = await failure(loopbacks.fetch()('ftp://127.0.0.1/file'));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
  });
});
