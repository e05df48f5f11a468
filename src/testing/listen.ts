import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CoreHandler, DROP } from './http';
import type { ListeningServer, ListenOptions } from './types';

/** Serves the core over node:http (loopback by default; port 0 picks a free port). */
export async function listen(
  handle: CoreHandler,
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    serve(handle, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(handle: CoreHandler, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const request = new Request(
    new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`),
    {
      method,
      headers,
      ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    },
  );
  const result = await handle(request);
  if (result === DROP) {
    req.socket.destroy();
    return;
  }
  if (result.headers.get('content-type')?.startsWith('text/event-stream') && result.body) {
    await stream(result, res);
    return;
  }
  const payload = Buffer.from(await result.arrayBuffer());
  res.writeHead(result.status, Object.fromEntries(result.headers));
  res.end(payload);
}

/** An event stream (the payer's phone page) is written as it comes, until either side ends. */
async function stream(result: Response, res: ServerResponse): Promise<void> {
  const reader = (result.body as ReadableStream<Uint8Array>).getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  res.writeHead(result.status, Object.fromEntries(result.headers));
  res.flushHeaders();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}
