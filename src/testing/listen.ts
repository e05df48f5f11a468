import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { hostList, hostNameOf, isLoopbackHost } from './hosts';
import { type CoreHandler, codeError, DROP } from './http';
import type { ListeningServer, ListenOptions } from './types';

/** Bound to these, the server has no name of its own to accept in a Host header. */
const ANY_INTERFACE = new Set(['0.0.0.0', '[::]']);

/**
 * Serves the core over node:http (loopback by default; port 0 picks a free port). A
 * request whose Host header names neither loopback, nor the bound host, nor one of
 * `allowedHosts` gets 403 (a DNS-rebinding page would send its own name).
 */
export async function listen(
  handle: CoreHandler,
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  const allowed = new Set(hostList(options.allowedHosts, 'listen: allowedHosts'));
  const bound = hostNameOf(host.includes(':') ? `[${host}]` : host, 'host');
  if (bound !== undefined && !ANY_INTERFACE.has(bound)) allowed.add(bound);
  // An address is no DNS name, so it cannot be rebound: a Host naming one is accepted.
  const accepts = (name: string | undefined) =>
    name !== undefined &&
    (isLoopbackHost(name) || allowed.has(name) || isIP(name.replace(/^\[|\]$/g, '')) !== 0);
  const server = createServer((req, res) => {
    const name = hostNameOf(req.headers.host ?? '', 'host');
    const work = accepts(name) ? serve(handle, req, res) : refuseHost(req, res, req.headers.host);
    work.catch(() => {
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

async function refuseHost(req: IncomingMessage, res: ServerResponse, host: string | undefined) {
  req.resume();
  const said =
    host === undefined ? 'No Host header' : `Host ${JSON.stringify(host)} is not allowed`;
  await write(
    codeError(
      403,
      'FORBIDDEN',
      `${said}: this simulator answers loopback names and the host it is bound to; add others with listen({ allowedHosts }) or the CLI's --allowed-hosts.`,
    ),
    res,
  );
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
  await write(result, res);
}

async function write(result: Response, res: ServerResponse): Promise<void> {
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
