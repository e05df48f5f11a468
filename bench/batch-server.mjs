/**
 * The provider of the batch section (sections/batch.mjs), in its own process: the
 * disbursement token, transfer and deposit creation (202; 409 for a reference id it has)
 * and their lookups (404 for an id it never accepted, PENDING until `settleMs` after
 * acceptance, then SUCCESSFUL). Lookups are capped at `cap` served in any sliding second,
 * 429 `Retry-After: 1` beyond (refusals do not count against the window); cap 0: none.
 *
 * argv: cap, settleMs. IPC: {type:'reset'|'stats', id} zeroes (and forgets accepted ids)
 * or answers the counters { creates, duplicates, served, refused, pending, notFound } and
 * `spans`: first and last create and lookup served, ms since the reset. Sends {type:'ready', port} once listening.
 */

import { createServer } from 'node:http';
import { slidingWindow } from './lib/sliding-window.mjs';

const cap = Number(process.argv[2] ?? 0);
const settleMs = Number(process.argv[3] ?? 0);
const CREATE = /^\/disbursement\/v1_0\/(transfer|deposit)$/;
const LOOKUP = /^\/disbursement\/v1_0\/(transfer|deposit)\/([^/?]+)$/;
const TOKEN = JSON.stringify({ access_token: `bench.${'x'.repeat(600)}`, expires_in: 3600 });
const REFUSED = JSON.stringify({ code: 'TOO_MANY_REQUESTS', message: 'rate limit' });
const NOT_FOUND = JSON.stringify({ code: 'RESOURCE_NOT_FOUND', message: 'unknown id' });
const DUPLICATE = JSON.stringify({
  code: 'RESOURCE_ALREADY_EXIST',
  message: 'Duplicated reference id. Creation of resource failed.',
});
const result = (status) =>
  `{"amount":"1.00","currency":"EUR",${status === 'SUCCESSFUL' ? '"financialTransactionId":"123456789",' : ''}"externalId":"bench","payee":{"partyIdType":"MSISDN","partyId":"46733123999"},"payerMessage":"bench","payeeNote":"bench","status":"${status}"}`;
const PENDING = result('PENDING');
const SUCCESSFUL = result('SUCCESSFUL');

const fresh = () => ({
  creates: 0,
  duplicates: 0,
  served: 0,
  refused: 0,
  pending: 0,
  notFound: 0,
  spans: { firstCreate: null, lastCreate: null, firstLookup: null, lastLookup: null },
});
let stats = fresh();
let resetAt = performance.now();
/** Notes `now` as the first (if none yet) and last time of `kind`. */
function span(kind, now) {
  const at = Math.round(now - resetAt);
  stats.spans[`first${kind}`] ??= at;
  stats.spans[`last${kind}`] = at;
}
/** reference id (lower case) -> time (ms, performance.now) it settles. */
let accepted = new Map();

/** The lookups served in the last second, at most `cap`. */
const admit = slidingWindow(cap);

function send(res, status, body, headers = {}) {
  if (body === undefined) {
    res.writeHead(status, { 'content-length': '0', ...headers });
    return res.end();
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function handle(req, res) {
  const { method, url } = req;
  if (method === 'GET') {
    const lookup = LOOKUP.exec(url);
    if (!lookup) return send(res, 404, NOT_FOUND);
    const now = performance.now();
    if (!admit(now)) {
      stats.refused++;
      return send(res, 429, REFUSED, { 'retry-after': '1' });
    }
    stats.served++;
    span('Lookup', now);
    const settlesAt = accepted.get(lookup[2].toLowerCase());
    if (settlesAt === undefined) {
      stats.notFound++;
      return send(res, 404, NOT_FOUND);
    }
    if (now < settlesAt) {
      stats.pending++;
      return send(res, 200, PENDING);
    }
    return send(res, 200, SUCCESSFUL);
  }
  if (method === 'POST' && CREATE.test(url)) {
    stats.creates++;
    span('Create', performance.now());
    const id = String(req.headers['x-reference-id'] ?? '').toLowerCase();
    if (accepted.has(id)) {
      stats.duplicates++;
      return send(res, 409, DUPLICATE);
    }
    accepted.set(id, performance.now() + settleMs);
    return send(res, 202);
  }
  if (method === 'POST' && url === '/disbursement/token/') return send(res, 200, TOKEN);
  send(res, 404, NOT_FOUND);
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => handle(req, res));
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});
process.on('message', (message) => {
  if (message?.type === 'reset') {
    stats = fresh();
    resetAt = performance.now();
    accepted = new Map();
  }
  process.send({ type: message?.type, id: message?.id, stats });
});
process.on('disconnect', () => process.exit(0));
