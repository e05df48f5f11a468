/**
 * The bench server, run in its own process (forked by the bench, controlled over IPC).
 * A minimal keep-alive node:http server answering the part of the Partner API the bench
 * uses, with the shapes the SDK's parsers require: the disbursement token, balance,
 * deposit creation (202) and deposit lookup (PENDING until settled, then SUCCESSFUL).
 * It is much cheaper per request than the simulator (no Request/Response objects, no
 * validation), so that it is not the bottleneck. It counts connections opened, open
 * sockets (and their peak) and requests by kind.
 *
 * IPC: {type:'reset', id, settleMs, arrivals} zeroes the counters (peak = sockets open now)
 * and forgets accepted ids; {type:'stats', id} answers the counters. With `arrivals: true`
 * it notes when each deposit creation arrived (`performance.timeOrigin + now()`, the clock
 * the bench process reads too), answered by {type:'arrivals', id}. Replies carry the id.
 */
import { createServer } from 'node:http';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const TOKEN = JSON.stringify({
  access_token: `bench.${'x'.repeat(600)}`, // a JWT-sized token, as MTN's are
  token_type: 'access_token',
  expires_in: 3600,
});
const BALANCE = JSON.stringify({ availableBalance: '1000000.00', currency: 'EUR' });
const NOT_FOUND = JSON.stringify({ code: 'NOT_FOUND', message: 'unknown path' });
const DUPLICATE = JSON.stringify({
  code: 'RESOURCE_ALREADY_EXIST',
  message: 'Duplicated reference id. Creation of resource failed.',
});
const LOOKUP = '/disbursement/v1_0/deposit/';

let settleMs = 5_000;
/** referenceId -> time (epoch ms) it becomes final. */
let accepted = new Map();
/** referenceId -> when its creating request arrived, while the bench asks for them. */
let arrivals;
let stats = freshStats(0);
let open = 0;

function freshStats(openNow) {
  return {
    connections: 0,
    open: openNow,
    peakOpen: openNow,
    requests: { token: 0, create: 0, lookup: 0, balance: 0, other: 0 },
    duplicates: 0,
    rejected: 0,
  };
}

/**
 * A deposit's lookup body. `benchSettledAt` (unknown to the SDK, kept by its tolerant
 * reader) lets the client compute how late it saw the final status. An id this server
 * never accepted is reported settled long ago (the sequential-lookup workload uses one).
 */
function lookupBody(referenceId, now) {
  const settledAt = accepted.get(referenceId) ?? 0;
  const done = now >= settledAt;
  return `{"amount":"1","currency":"EUR",${done ? '"financialTransactionId":"123456789",' : ''}"externalId":"bench","payee":{"partyIdType":"MSISDN","partyId":"46733123999"},"payerMessage":"bench","payeeNote":"bench","status":"${done ? 'SUCCESSFUL' : 'PENDING'}","benchSettledAt":${settledAt}}`;
}

function send(res, status, body) {
  if (body === undefined) {
    res.writeHead(status, { 'content-length': '0' });
    res.end();
    return;
  }
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req, res) {
  const { method, url, headers } = req;
  if (!headers['ocp-apim-subscription-key'] || !headers.authorization) {
    stats.rejected++;
    return send(res, 401, '{"error":"missing_credentials"}');
  }
  if (method === 'POST' && url === '/disbursement/token/') {
    stats.requests.token++;
    return send(res, 200, TOKEN);
  }
  if (!headers['x-target-environment']) {
    stats.rejected++;
    return send(res, 400, '{"code":"NOT_ALLOWED_TARGET_ENVIRONMENT","message":"missing"}');
  }
  if (method === 'GET' && url.startsWith(LOOKUP)) {
    stats.requests.lookup++;
    return send(res, 200, lookupBody(url.slice(LOOKUP.length).toLowerCase(), Date.now()));
  }
  if (method === 'POST' && url === '/disbursement/v1_0/deposit') {
    stats.requests.create++;
    const id = headers['x-reference-id']?.toLowerCase();
    if (!id || !headers['content-type']?.startsWith('application/json')) {
      stats.rejected++;
      return send(res, 400, '{"code":"BAD_REQUEST","message":"reference id or body"}');
    }
    if (accepted.has(id)) {
      stats.duplicates++;
      return send(res, 409, DUPLICATE);
    }
    accepted.set(id, Date.now() + settleMs);
    arrivals?.set(id, performance.timeOrigin + performance.now());
    return send(res, 202);
  }
  if (method === 'GET' && url === '/disbursement/v1_0/account/balance') {
    stats.requests.balance++;
    return send(res, 200, BALANCE);
  }
  stats.requests.other++;
  return send(res, 404, NOT_FOUND);
}

const server = createServer((req, res) => {
  // Every request body is read to its end before answering, as a real server would.
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return handle(req, res);
  }
  req.on('data', () => {});
  req.on('end', () => handle(req, res));
});
// Idle keep-alive sockets stay open for a minute (API gateways keep them for minutes);
// the client decides when to drop them.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.on('connection', (socket) => {
  stats.connections++;
  open++;
  if (open > stats.peakOpen) stats.peakOpen = open;
  socket.once('close', () => {
    open--;
  });
});

process.on('message', (message) => {
  if (message?.type === 'reset') {
    if (typeof message.settleMs === 'number') settleMs = message.settleMs;
    accepted = new Map();
    arrivals = message.arrivals ? new Map() : undefined;
    stats = freshStats(open);
    process.send({ type: 'reset', id: message.id });
  } else if (message?.type === 'stats') {
    process.send({ type: 'stats', id: message.id, stats: { ...stats, open } });
  } else if (message?.type === 'arrivals') {
    const all = Object.fromEntries(arrivals ?? []);
    process.send({ type: 'arrivals', id: message.id, arrivals: all });
  }
});
process.on('disconnect', () => process.exit(0));

// The default listen backlog (511), as a partner's server gets.
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});
