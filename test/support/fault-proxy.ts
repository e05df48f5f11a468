import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request instead of passing it on as it is. */
export type ProxyFault =
  /** Answered with this status (and headers) without passing it on: nothing processed. */
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** The connection dropped before passing it on: nothing processed. */
  | { kind: 'drop-before' }
  /** Passed on (processed), then the connection dropped: the answer is lost. */
  | { kind: 'drop-after' }
  /** Passed on, and its answer held back this long (a late answer). */
  | { kind: 'late'; ms: number };

/** One request as the proxy saw it: what `decide` is asked about. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Requests seen before this one, of any kind (0-based). */
  index: number;
}

/**
 * A real HTTP server on loopback in front of a simulator's `listen()` URL: each request is
 * passed on, unless `decide` names a fault for it. Counts what it passed on, so a test
 * can tell what reached the provider.
 */
export async function startFaultProxy(
  target: string,
  decide: (request: ProxiedRequest) => ProxyFault | undefined,
) {
  let index = 0;
  const passed: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        index: index++,
      };
      void serve(target, request, decide(request), res, passed);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    /** The requests passed on to the simulator, in order. */
    passed,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function serve(
  target: string,
  request: ProxiedRequest,
  fault: ProxyFault | undefined,
  res: ServerResponse,
  passed: ProxiedRequest[],
): Promise<void> {
  if (fault?.kind === 'drop-before') return void res.socket?.destroy();
  if (fault?.kind === 'status') {
    res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
    return void res.end(JSON.stringify({ code: 'FAULT', message: 'injected by the proxy' }));
  }
  passed.push(request);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && name !== 'host' && name !== 'connection')
      headers[name] = value;
  }
  const answer = await fetch(target + request.path, {
    method: request.method,
    headers,
    ...(request.body === '' ? {} : { body: request.body }),
  });
  const body = Buffer.from(await answer.arrayBuffer());
  if (fault?.kind === 'drop-after') return void res.socket?.destroy();
  if (fault?.kind === 'late') await new Promise((resolve) => setTimeout(resolve, fault.ms));
  if (res.destroyed) return;
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) {
      out[name] = value;
    }
  });
  res.writeHead(answer.status, out);
  res.end(body);
}
