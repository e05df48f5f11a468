/**
 * A provider that caps status lookups, in its own process (forked by
 * sections/rate-limit.mjs): the disbursement token, deposit creation (202, SUCCESSFUL at
 * once) and deposit lookups, at most `limit` served in any sliding second; beyond, 429 with
 * `Retry-After: 1` (refused lookups do not count against the window).
 *
 * argv: limit. IPC: {type:'reset'|'stats', id} zeroes or answers the counters
 * { served, refused, creates }. Sends {type:'ready', port} once listening.
 */
import { createServer } from 'node:http';

const limit = Number(process.argv[2] ?? 100);
const LOOKUP = '/disbursement/v1_0/deposit/';
const TOKEN = JSON.stringify({ access_token: `bench.${'x'.repeat(600)}`, expires_in: 3600 });
const RESULT =
  '{"amount":"1","currency":"EUR","financialTransactionId":"1","externalId":"bench","status":"SUCCESSFUL"}';
const REFUSED = JSON.stringify({ code: 'TOO_MANY_REQUESTS', message: 'rate limit' });

let stats = { served: 0, refused: 0, creates: 0 };
/** Times (ms) of the lookups served in the last second, oldest first (a ring). */
const window = new Float64Array(limit);
let oldest = 0;
let count = 0;

function admit(now) {
  while (count > 0 && now - window[oldest] >= 1_000) {
    oldest = (oldest + 1) % limit;
    count--;
  }
  if (count >= limit) return false;
  window[(oldest + count) % limit] = now;
  count++;
  return true;
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const { method, url } = req;
    if (method === 'GET' && url.startsWith(LOOKUP)) {
      if (!admit(performance.now())) {
        stats.refused++;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        return res.end(REFUSED);
      }
      stats.served++;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(RESULT);
    }
    if (method === 'POST' && url === '/disbursement/v1_0/deposit') {
      stats.creates++;
      res.writeHead(202, { 'content-length': '0' });
      return res.end();
    }
    if (method === 'POST' && url === '/disbursement/token/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(TOKEN);
    }
    res.writeHead(404, { 'content-length': '0' });
    res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});
process.on('message', (message) => {
  if (message?.type === 'reset') stats = { served: 0, refused: 0, creates: 0 };
  process.send({ type: message?.type, id: message?.id, stats });
});
process.on('disconnect', () => process.exit(0));
