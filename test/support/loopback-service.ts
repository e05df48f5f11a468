import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECRETS } from './fake-service';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/**
 * A creating call's route answering 202 after `delayMs(n)` ms, n counting its requests
 * from 0, or once the promise `delayMs(n)` gives has settled.
 */
export function acceptAfter(delayMs: number | ((n: number) => number | Promise<unknown>)): Route {
  let n = 0;
  return (_req, res) => {
    const delay = typeof delayMs === 'number' ? delayMs : delayMs(n++);
    const accept = () => {
      res.statusCode = 202;
      res.end();
    };
    if (typeof delay === 'number') setTimeout(accept, delay);
    else void delay.then(accept, accept);
  };
}

/**
 * A real HTTP server on loopback for transport tests: token and deposit endpoints by
 * default (override any route), counting connections and requests in flight.
 */
export async function startLoopbackService(routes: Record<string, Route> = {}) {
  const stats = { connections: 0, openSockets: 0, peakSockets: 0, inFlight: 0, peakInFlight: 0 };
  const seen: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }> = [];
  const defaults: Record<string, Route> = {
    'POST /disbursement/token/': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'loopback-token-0123456789', expires_in: 3600 }));
    },
    'POST /disbursement/v1_0/deposit': (_req, res) => {
      res.statusCode = 202;
      res.end();
    },
  };
  const server = createServer((req, res) => {
    stats.inFlight++;
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
    res.on('close', () => stats.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] as string;
      seen.push({ method: req.method ?? '', path, headers: req.headers });
      const key = `${req.method} ${path}`;
      const route = routes[key] ?? defaults[key] ?? routes[`${req.method} *`];
      if (route) return route(req, res, Buffer.concat(chunks).toString('utf8'));
      res.statusCode = 404;
      res.end();
    });
  });
  server.on('connection', (socket) => {
    stats.connections++;
    stats.openSockets++;
    stats.peakSockets = Math.max(stats.peakSockets, stats.openSockets);
    socket.on('close', () => stats.openSockets--);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stats,
    seen,
    options: {
      baseUrl: `http://127.0.0.1:${port}`,
      targetEnvironment: 'sandbox',
      subscriptionKey: SECRETS.subscriptionKey,
      apiUser: { id: SECRETS.apiUserId, key: SECRETS.apiKey },
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
