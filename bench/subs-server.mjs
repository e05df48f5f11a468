/**
 * The provider of the subscriptions section (sections/subscriptions.mjs), in its own
 * process: the collection token, pre-approvals (202; looked up APPROVED at once, i.e.
 * SUCCESSFUL with an `expirationDateTime` its validity away) and requests to pay (202;
 * PENDING until `settleMs` after acceptance, then SUCCESSFUL, echoing the amount, currency
 * and payer sent). A reference id it has is a 409; an id it never accepted is a 404.
 *
 * Caps, from the first `reset` on (the setup before it, subscribing and approving the
 * mandates, runs uncapped): at most `createCap` creating calls and `lookupCap` lookups
 * served in any sliding second, each answered 429 `Retry-After: 1` beyond (refusals do not
 * count against the window); 0: no cap.
 *
 * argv: createCap, lookupCap, settleMs. IPC: {type:'reset'|'stats', id}: `reset` zeroes
 * the counters (the ids accepted are kept: the setup's mandates stay approved) and arms
 * the caps; both answer the counters { creates, createsRefused, duplicates, served,
 * refused, pending, notFound, charges } and `spans` (first and last create and lookup
 * served, ms since the reset). Sends {type:'ready', port} once listening.
 */

import { createServer } from 'node:http';
import { slidingWindow } from './lib/sliding-window.mjs';

const [createCap, lookupCap, settleMs] = process.argv.slice(2, 5).map(Number);
const CREATE = /^\/collection\/v(?:1_0\/requesttopay|2_0\/preapproval)$/;
const LOOKUP = /^\/collection\/v(?:1_0\/requesttopay|2_0\/preapproval)\/([^/?]+)$/;
const TOKEN = JSON.stringify({ access_token: `bench.${'x'.repeat(600)}`, expires_in: 3600 });
const REFUSED = JSON.stringify({ code: 'TOO_MANY_REQUESTS', message: 'rate limit' });
const NOT_FOUND = JSON.stringify({ code: 'RESOURCE_NOT_FOUND', message: 'unknown id' });
const DUPLICATE = JSON.stringify({
  code: 'RESOURCE_ALREADY_EXIST',
  message: 'Duplicated reference id. Creation of resource failed.',
});

const fresh = () => ({
  creates: 0,
  createsRefused: 0,
  duplicates: 0,
  served: 0,
  refused: 0,
  pending: 0,
  notFound: 0,
  charges: 0,
  spans: { firstCreate: null, lastCreate: null, firstLookup: null, lastLookup: null },
});
let stats = fresh();
let resetAt = performance.now();
let armed = false;
function span(kind, now) {
  const at = Math.round(now - resetAt);
  stats.spans[`first${kind}`] ??= at;
  stats.spans[`last${kind}`] = at;
}

const admitCreate = slidingWindow(createCap, () => armed);
const admitLookup = slidingWindow(lookupCap, () => armed);

/** reference id (lower case) -> { settlesAt, body, mandate }. */
const accepted = new Map();

function send(res, status, body, headers = {}) {
  if (body === undefined) {
    res.writeHead(status, { 'content-length': '0', ...headers });
    return res.end();
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function answer(found, now) {
  const { body } = found;
  if (found.mandate) {
    return JSON.stringify({
      payer: body.payer,
      payerCurrency: body.payerCurrency,
      status: 'SUCCESSFUL',
      expirationDateTime: new Date(found.acceptedAt + body.validityTime * 1000).toISOString(),
    });
  }
  const settled = now >= found.settlesAt;
  if (!settled) stats.pending++;
  return JSON.stringify({
    amount: body.amount,
    currency: body.currency,
    payer: body.payer,
    status: settled ? 'SUCCESSFUL' : 'PENDING',
    ...(settled ? { financialTransactionId: '123456789' } : {}),
  });
}

function handle(req, res, text) {
  const { method, url } = req;
  const now = performance.now();
  if (method === 'GET') {
    const lookup = LOOKUP.exec(url);
    if (!lookup) return send(res, 404, NOT_FOUND);
    if (!admitLookup(now)) {
      stats.refused++;
      return send(res, 429, REFUSED, { 'retry-after': '1' });
    }
    stats.served++;
    span('Lookup', now);
    const found = accepted.get(lookup[1].toLowerCase());
    if (found === undefined) {
      stats.notFound++;
      return send(res, 404, NOT_FOUND);
    }
    return send(res, 200, answer(found, now));
  }
  if (method === 'POST' && CREATE.test(url)) {
    if (!admitCreate(now)) {
      stats.createsRefused++;
      return send(res, 429, REFUSED, { 'retry-after': '1' });
    }
    stats.creates++;
    span('Create', now);
    const id = String(req.headers['x-reference-id'] ?? '').toLowerCase();
    if (accepted.has(id)) {
      stats.duplicates++;
      return send(res, 409, DUPLICATE);
    }
    const mandate = url.endsWith('preapproval');
    if (!mandate) stats.charges++;
    accepted.set(id, {
      settlesAt: now + settleMs,
      acceptedAt: Date.now(),
      body: JSON.parse(text),
      mandate,
    });
    return send(res, 202);
  }
  if (method === 'POST' && url === '/collection/token/') return send(res, 200, TOKEN);
  send(res, 404, NOT_FOUND);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => handle(req, res, Buffer.concat(chunks).toString()));
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});
process.on('message', (message) => {
  if (message?.type === 'reset') {
    stats = fresh();
    resetAt = performance.now();
    armed = true;
  }
  process.send({ type: message?.type, id: message?.id, stats });
});
process.on('disconnect', () => process.exit(0));
