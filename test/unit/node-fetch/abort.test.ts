import diagnostics from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import type http from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { answer, useLoopbacks } from './loopback';

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

/** A full garbage collection, as a long wait under load would eventually run. */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call resolved'),
    (error: unknown) => error,
  );

describe('node fetch: abort', () => {
  it('rejects at once with the reason of an already aborted signal, sending nothing', async () => {
    const server = await loopbacks.server(answer(200));
    const reason = { why: 'the caller gave up' };
    const error = await rejection(
      loopbacks.fetch()(`${server.url}/`, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
    expect(server.connections).toBe(0);
  });

  it.each([
    ['on the Request (as ky passes it)', undefined],
    ['on a Request given with init that rebuilds it', { headers: { 'x-extra': '1' } }],
  ])(
    "rejects with the signal's reason while waiting for the headers: signal %s",
    async (_, init) => {
      const { server, requestArrived, closedSockets } = await stalling({ partialBody: false });
      const fetch = loopbacks.fetch();
      const controller = new AbortController();
      const call = rejection(
        fetch(new Request(`${server.url}/wait`, { signal: controller.signal }), init),
      );
      await requestArrived;
      // Nothing but the adapter holds the Request now; its signal must still follow the caller's.
      collectGarbage();
      await nextTurn();
      collectGarbage();
      const reason = new Error('stop');
      controller.abort(reason);
      expect(await call).toBe(reason);
      await expect.poll(() => closedSockets).toEqual(['/wait']);
      await expect.poll(() => fetch.stats().open).toBe(0);
    },
  );

  it("rejects with the signal's reason while reading the body, and destroys the socket", async () => {
    const { server, closedSockets } = await stalling({ partialBody: true });
    const fetch = loopbacks.fetch();
    const controller = new AbortController();
    const headers = responseHeadersReceived();
    const call = rejection(fetch(`${server.url}/body`, { signal: controller.signal }));
    await headers;
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    await expect.poll(() => closedSockets).toEqual(['/body']);
  });

  it('resolves only once the body is in, so a deadline around the call covers a stalled body', async () => {
    const { server } = await stalling({ partialBody: true });
    // Node's fetch resolves on the headers: a deadline around it would not cover the body.
    const native = await globalThis.fetch(`${server.url}/native`);
    expect(native.status).toBe(200);
    await native.body?.cancel();
    const error = await rejection(
      loopbacks.fetch()(`${server.url}/ours`, { signal: AbortSignal.timeout(100) }),
    );
    expect((error as DOMException).name).toBe('TimeoutError');
  });

  it('leaves no listener on a long-lived signal after 1,000 calls', async () => {
    const server = await loopbacks.server(answer(200, {}, 'ok'));
    const fetch = loopbacks.fetch();
    const signal = new AbortController().signal;
    const during = fetch(`${server.url}/`, { signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await during;
    for (let i = 0; i < 500; i++) await (await fetch(`${server.url}/`, { signal })).text();
    // A Request given with a separate signal: the caller's signal is not handed to the Request.
    for (let i = 0; i < 500; i++) {
      await (await fetch(new Request(`${server.url}/`), { signal })).text();
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('leaves no listener after failed and aborted calls either', async () => {
    const server = await loopbacks.server((req) => req.socket.destroy());
    const fetch = loopbacks.fetch();
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) await rejection(fetch(`${server.url}/`, { signal }));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
