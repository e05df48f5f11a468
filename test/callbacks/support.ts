import { once } from 'node:events';
import { Agent, createServer, type RequestListener, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { type CallbackHandlerOptions, MomoClient, toNodeListener } from 'momo-partner-sdk';
import { startLoopbackService } from '../support/loopback-service';

/**
 * A loopback provider whose deposit lookups answer `statusOf(id)` after `delay` ms (or once
 * the `delay` promise has settled), counted.
 */
export async function startProvider(
  statusOf: (referenceId: string) => string = () => 'PENDING',
  delay: number | Promise<unknown> = 0,
) {
  const lookups: string[] = [];
  const service = await startLoopbackService({
    'GET *': (req, res) => {
      const referenceId = (req.url ?? '').split('/').pop() ?? '';
      lookups.push(referenceId);
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ amount: '100', currency: 'EUR', status: statusOf(referenceId) }));
      };
      if (typeof delay === 'number') setTimeout(answer, delay);
      else void delay.then(answer, answer);
    },
  });
  return { ...service, lookups };
}

/** A real node:http server in front of `listener`, on loopback. */
export async function serve(listener: RequestListener) {
  const server = createServer(listener);
  // Thousands of senders connect at once: a backlog past Node's default 511.
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The partner's receiver: a client on `baseUrl` and its callback handler over node:http. */
export async function startReceiver(
  options: { baseUrl: string; targetEnvironment: string } & Record<string, unknown>,
  handlerOptions: CallbackHandlerOptions = {},
) {
  const momo = new MomoClient({
    ...(options as ConstructorParameters<typeof MomoClient>[0]),
    callbackUrl: 'https://partner.test/momo/callbacks/{referenceId}',
  });
  const receiver = await serve(toNodeListener(momo.callbacks.handler(handlerOptions)));
  return { momo, ...receiver };
}

/** Senders' connections, kept alive: hundreds of callbacks in flight, not thousands of handshakes. */
const senders = new Agent({ keepAlive: true, maxSockets: 256 });

/** PUTs a callback body to the receiver; resolves to the status (and Retry-After). */
export function putCallback(receiverUrl: string, referenceId: string, body: unknown) {
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const req = request(`${receiverUrl}/momo/callbacks/${referenceId}`, {
      method: 'PUT',
      agent: senders,
      headers: { 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Sends `totalBytes` as a chunked body with no content-length, generated lazily (one
 * shared 64 KB chunk, never the whole body), and resolves to the status the server gave
 * and how many bytes it took from the generator.
 */
export function sendHugeBody(receiverUrl: string, totalBytes: number) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let produced = 0;
  const body = new Readable({
    read() {
      if (produced >= totalBytes) return void this.push(null);
      produced += chunk.length;
      this.push(chunk);
    },
  });
  return new Promise<{ status: number; produced: number }>((resolve, reject) => {
    const req = request(`${receiverUrl}/momo/callbacks/3f2b2c1e-7d4a-4b8e-9c1d-2e3f4a5b6c7d`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, produced });
      body.unpipe(req);
      body.destroy();
    });
    // The server closes the connection after its answer: a write error then is expected.
    req.on('error', (error) => setTimeout(() => reject(error), 2_000));
    body.pipe(req);
  });
}

/** Samples this process's RSS every 10 ms while `run` goes; resolves to its result and peak growth. */
export async function peakRssGrowth<T>(run: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthBytes: peak - before };
  } finally {
    clearInterval(sampler);
  }
}
