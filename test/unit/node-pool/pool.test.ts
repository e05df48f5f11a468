import { describe, expect, it } from 'vitest';
import { answer, exchange, loopbackCert, useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

describe('node pool: the connection pool', () => {
  it('never opens more than maxSockets under 1,000 concurrent calls, and all succeed', async () => {
    const server = await loopbacks.server((_req, res, body) => {
      // Answer a little later so that calls pile up behind the cap.
      setTimeout(() => res.writeHead(200).end(body), 1);
    });
    const pool = loopbacks.pool({ maxSockets: 16 });
    const bodies = await Promise.all(
      Array.from({ length: 1_000 }, async (_, i) => {
        const sent = exchange(`${server.url}/${i}`, { method: 'POST', body: `"${i}"` });
        return (await pool.send(sent)).body;
      }),
    );
    expect(bodies).toEqual(Array.from({ length: 1_000 }, (_, i) => String(i)));
    expect(server.connections).toBeLessThanOrEqual(16);
    expect(server.peakConnections).toBeLessThanOrEqual(16);
  });

  it('reuses one keep-alive socket for sequential calls', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const pool = loopbacks.pool();
    for (let i = 0; i < 50; i++)
      expect((await pool.send(exchange(`${server.url}/`))).body).toBe('ok');
    expect(server.connections).toBe(1);
    expect([server.open, server.peakConnections]).toEqual([1, 1]);
  });

  it('close() destroys the sockets; a later call opens a new one', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const pool = loopbacks.pool();
    await pool.send(exchange(`${server.url}/`));
    pool.close();
    await expect.poll(() => server.open).toBe(0);
    expect((await pool.send(exchange(`${server.url}/`))).body).toBe('ok');
    expect(server.connections).toBe(2);
  });
  it('close(true) cuts no call: idle sockets close now, busy ones once answered', async () => {
    const answers: (() => void)[] = [];
    const server = await loopbacks.server((_req, res, body) => {
      answers.push(() => res.writeHead(200).end(body));
    });
    const pool = loopbacks.pool();
    const warm = Array.from({ length: 3 }, (_, i) =>
      pool.send(exchange(`${server.url}/${i}`, { method: 'POST', body: `"${i}"` })),
    );
    await expect.poll(() => answers.length).toBe(3);
    answers.splice(0, 1)[0]?.(); // one answered: its socket idle, two busy
    await warm[0];
    await expect.poll(() => server.open).toBe(3);
    pool.close(true);
    await expect.poll(() => server.open).toBe(2); // the idle one is gone
    for (const answerNow of answers.splice(0)) answerNow();
    expect((await Promise.all(warm.slice(1))).map((a) => a.body)).toEqual(['1', '2']);
    await expect.poll(() => server.open).toBe(0); // the busy ones, once answered
  });
});

describe('node pool: https', () => {
  it('talks to an https server whose certificate a tls.ca option trusts, over one socket', async () => {
    const server = await loopbacks.server(answer(200, {}, 'secure'), { secure: true });
    const pool = loopbacks.pool({ maxSockets: 4, tls: { ca: loopbackCert } });
    for (let i = 0; i < 3; i++) {
      expect((await pool.send(exchange(`${server.url}/`))).body).toBe('secure');
    }
    expect(server.connections).toBe(1);
    expect(server.requests[0]?.headers.host).toBe(server.url.slice('https://'.length));
  });

  it('refuses a certificate nothing trusts, like fetch', async () => {
    const server = await loopbacks.server(answer(200), { secure: true });
    const error = await loopbacks
      .pool()
      .send(exchange(`${server.url}/`))
      .then(
        () => undefined,
        (e: unknown) => e as Error & { code: string },
      );
    const native = await globalThis.fetch(`${server.url}/`).then(
      () => undefined,
      (e: unknown) => e as TypeError & { cause: { code: string } },
    );
    expect(error?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(error?.code).toBe(native?.cause.code);
    expect(server.requests).toHaveLength(0);
  });
});
