import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach } from 'vitest';
import { createNodePool, type NodePool } from '../../../src/core/node-pool';
import type { Exchange } from '../../../src/core/port';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/tls/${name}`, import.meta.url), 'utf8');

/** The self-signed certificate (127.0.0.1, ::1, localhost) the https tests trust explicitly. */
export const loopbackCert = fixture('loopback-cert.pem');
const loopbackKey = fixture('loopback-key.pem');

export interface Loopback {
  url: string;
  /** Sockets the server accepted so far. */
  connections: number;
  /** The most sockets open on the server side at once. */
  peakConnections: number;
  /** Sockets open now: the client's, as a pool closes one the server sees it close. */
  readonly open: number;
  /** Requests received, in order. */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }>;
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

/**
 * A real server on 127.0.0.1 (http, or https with the fixture certificate) that reads each
 * request body in full, records it, then lets `handler` answer.
 */
export async function startLoopback(
  handler: Handler,
  { secure = false }: { secure?: boolean } = {},
): Promise<Loopback> {
  const sockets = new Set<Socket>();
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      loopback.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      });
      handler(req, res, body);
    });
  };
  const server = secure
    ? https.createServer({ cert: loopbackCert, key: loopbackKey }, onRequest)
    : http.createServer(onRequest);
  server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
    loopback.connections++;
    sockets.add(socket);
    loopback.peakConnections = Math.max(loopback.peakConnections, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 2048, resolve));
  const { port } = server.address() as AddressInfo;
  const loopback: Loopback = {
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    connections: 0,
    peakConnections: 0,
    get open() {
      return sockets.size;
    },
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return loopback;
}

/** Servers and adapters made in a test file, closed after each test and at the end. */
export function useLoopbacks() {
  const servers: Loopback[] = [];
  const pools: NodePool[] = [];
  const cleanUp = async () => {
    for (const pool of pools.splice(0)) pool.close();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  };
  afterEach(cleanUp);
  afterAll(cleanUp);
  return {
    async server(handler: Handler, options?: { secure?: boolean }) {
      const server = await startLoopback(handler, options);
      servers.push(server);
      return server;
    },
    pool(options: Parameters<typeof createNodePool>[0] = { maxSockets: 16 }) {
      const pool = createNodePool(options);
      pools.push(pool);
      return pool;
    },
  };
}

/** Answers every request with this status, headers and body. */
export const answer =
  (status: number, headers: http.OutgoingHttpHeaders = {}, body?: string | Buffer): Handler =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/** An exchange as the transport hands it over: GET, no header, no body, a far deadline. */
export function exchange(url: string, fields: Partial<Exchange> = {}): Exchange {
  return {
    url,
    method: 'GET',
    headers: {},
    body: undefined,
    deadline: Date.now() + 10_000,
    signal: undefined,
    ...fields,
  };
}
