import { describe, expect, it } from 'vitest';
import { answer, loopbackCert, useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

describe('node fetch: the connection pool', () => {
  it('never opens more than maxSockets under 1,000 concurrent calls, and all succeed', async () => {
    const server = await loopbacks.server((_req, res, body) => {
      // Answer a little later so that calls pile up behind the cap.
      setTimeout(() => res.writeHead(200).end(body), 1);
    });
    const fetch = loopbacks.fetch({ maxSockets: 16 });
    const bodies = await Promise.all(
      Array.from({ length: 1_000 }, async (_, i) => {
        const response = await fetch(new Request(`${server.url}/${i}`, { method: 'POST' }), {
          momoRawBody: String(i),
        });
        return response.text();
      }),
    );
    expect(bodies).toEqual(Array.from({ length: 1_000 }, (_, i) => String(i)));
    expect(server.connections).toBeLessThanOrEqual(16);
    expect(server.peakConnections).toBeLessThanOrEqual(16);
    expect(fetch.stats().peak).toBeLessThanOrEqual(16);
    expect(fetch.stats().created).toBe(server.connections);
  });

  it('reuses one keep-alive socket for sequential calls', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const fetch = loopbacks.fetch();
    for (let i = 0; i < 50; i++) expect(await (await fetch(`${server.url}/`)).text()).toBe('ok');
    expect(server.connections).toBe(1);
    expect(fetch.stats()).toEqual({ open: 1, peak: 1, created: 1 });
  });

  it('close() destroys the sockets; a later call opens a new one', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const fetch = loopbacks.fetch();
    await (await fetch(`${server.url}/`)).text();
    fetch.close();
    await expect.poll(() => fetch.stats().open).toBe(0);
    expect(await (await fetch(`${server.url}/`)).text()).toBe('ok');
    expect(server.connections).toBe(2);
  });
});

describe('node fetch: https', () => {
  it('talks to an https server whose certificate a tls.ca option trusts, over one socket', async () => {
    const server = await loopbacks.server(answer(200, {}, 'secure'), { secure: true });
    const fetch = loopbacks.fetch({ maxSockets: 4, tls: { ca: loopbackCert } });
    for (let i = 0; i < 3; i++) {
      expect(await (await fetch(new Request(`${server.url}/`))).text()).toBe('secure');
    }
    expect(server.connections).toBe(1);
    expect(server.requests[0]?.headers.host).toBe(server.url.slice('https://'.length));
  });

  it('refuses a certificate nothing trusts, like fetch', async () => {
    const server = await loopbacks.server(answer(200), { secure: true });
    const error = await loopbacks
      .fetch()(`${server.url}/`)
      .then(
        () => undefined,
        (e: unknown) => e as TypeError & { cause: { code: string } },
      );
    const native = await globalThis.fetch(`${server.url}/`).then(
      () => undefined,
      (e: unknown) => e as TypeError & { cause: { code: string } },
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe('fetch failed');
    expect(error?.cause.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(error?.cause.code).toBe(native?.cause.code);
    expect(server.requests).toHaveLength(0);
  });
});
