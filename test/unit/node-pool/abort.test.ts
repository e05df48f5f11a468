import diagnostics from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { answer, exchange, useLoopbacks } from './loopback';

const loopbacks = useLoopbacks();

/** A server that takes requests and never answers (or answers only the headers and a bit). */
async function stalling({ partialBody }: { partialBody: boolean }) {
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const closedSockets: string[] = [];
  const server = await loopbacks.server((req, res) => {
    req.socket.on('close', () => closedSockets.push(req.url ?? ''));
    if (partialBody) {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"partial":');
    }
    arrived();
  });
  return { server, requestArrived, closedSockets };
}

/** Resolves when the client side has received the response headers of any request. */
function responseHeadersReceived(): Promise<void> {
  return new Promise((resolve) => {
    const onResponse = (message: unknown) => {
      const { response } = message as { response: http.IncomingMessage };
      if (response.statusCode !== 200) return;
      diagnostics.unsubscribe('http.client.response.finish', onResponse);
      resolve();
    };
    diagnostics.subscribe('http.client.response.finish', onResponse);
  });
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call resolved'),
    (error: unknown) => error,
  );

describe('node pool: abort', () => {
  it('rejects at once with the reason of an already aborted signal, sending nothing', async () => {
    const server = await loopbacks.server(answer(200));
    const reason = { why: 'the caller gave up' };
    const error = await rejection(
      loopbacks.pool().send(exchange(`${server.url}/`, { signal: AbortSignal.abort(reason) })),
    );
    expect(error).toBe(reason);
    expect(server.connections).toBe(0);
  });

  it("rejects with the signal's reason while waiting for the headers", async () => {
    const { server, requestArrived, closedSockets } = await stalling({ partialBody: false });
    const pool = loopbacks.pool();
    const controller = new AbortController();
    const call = rejection(
      pool.send(exchange(`${server.url}/wait`, { signal: controller.signal })),
    );
    await requestArrived;
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await call).toBe(reason);
    await expect.poll(() => closedSockets).toEqual(['/wait']);
    await expect.poll(() => server.open).toBe(0);
  });

  it("rejects with the signal's reason while reading the body, and destroys the socket", async () => {
    const { server, closedSockets } = await stalling({ partialBody: true });
    const pool = loopbacks.pool();
    const controller = new AbortController();
    const headers = responseHeadersReceived();
    const call = rejection(
      pool.send(exchange(`${server.url}/body`, { signal: controller.signal })),
    );
    await headers;
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    await expect.poll(() => closedSockets).toEqual(['/body']);
  });

  it('fails with a TimeoutError-named error when the deadline passes mid-body, and closes the socket', async () => {
    const { server, closedSockets } = await stalling({ partialBody: true });
    const error = await rejection(
      loopbacks.pool().send(exchange(`${server.url}/ours`, { deadline: Date.now() + 100 })),
    );
    expect((error as Error).name).toBe('TimeoutError');
    await expect.poll(() => closedSockets).toEqual(['/ours']);
  });

  it('leaves no listener on a long-lived signal after 1,000 calls', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const pool = loopbacks.pool();
    const signal = new AbortController().signal;
    const during = pool.send(exchange(`${server.url}/`, { signal }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await during;
    for (let i = 0; i < 1_000; i++) await pool.send(exchange(`${server.url}/`, { signal }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('leaves no listener after failed and aborted calls either', async () => {
    const server = await loopbacks.server((req) => req.socket.destroy());
    const pool = loopbacks.pool();
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) await rejection(pool.send(exchange(`${server.url}/`, { signal })));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
