/**
 * Three ways of wiring `momo.callbacks.handler()` into a server, each receiving a real
 * callback from the simulator (the README's framework snippets follow the same logic):
 *
 *   /node/   toNodeListener(handler) reads the request stream itself
 *            (node:http, or Express without a body parser on the route);
 *   /parsed/ a JSON body parser already consumed the stream and set req.body
 *            (Express after express.json(), Fastify's reply.hijack() with req.raw + body);
 *   /fetch/  a Fetch-API Request is built from the parsed body and the Response sent back
 *            (Fastify's reply, or any framework that hands you a parsed body).
 *
 * The client polls rarely (first lookup after 10 s): each wait ends early only if its
 * receiver handled the callback.
 *
 *   npx tsx examples/callback-adapters.ts     exits 0 when every step behaved, 1 otherwise
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MomoClient, toNodeListener } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { checklist } from './support/checklist';

const sim = createSimulator({ settleMs: 200 });
const server = await sim.listen({ port: 0 });
const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;

const receiver = createServer();
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const FIRST_POLL_MS = 10_000;
const momo = new MomoClient({
  baseUrl: server.url,
  targetEnvironment,
  subscriptionKey,
  apiUser,
  polling: { initialDelayMs: FIRST_POLL_MS, maxDelayMs: 30_000, timeoutMs: 60_000 },
});

const template = (prefix: string) => `${origin}/${prefix}/momo/{referenceId}`;
const received: string[] = [];
const handlerFor = (prefix: string) =>
  momo.callbacks.handler({
    callbackUrl: template(prefix), // where this receiver's callbacks come in
    onEvent: (event) => {
      received.push(`${prefix} ${event.referenceId}`);
      console.log(`   /${prefix}/ onEvent: ${event.referenceId} ${event.status}`);
    },
  });

/** Stands in for express.json() or Fastify's parser: reads the body and sets req.body. */
async function parseJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

// 1. node:http: the listener reads the stream.
const nodeListener = toNodeListener(handlerFor('node'));
// 2. A body parser ran first: the listener uses req.body.
const parsedListener = toNodeListener(handlerFor('parsed'));
// 3. A Fetch-API Request built from the parsed body; the Response copied back.
const fetchHandler = handlerFor('fetch');

receiver.on('request', async (req, res) => {
  const path = req.url ?? '/';
  if (path.startsWith('/node/')) return nodeListener(req, res);
  if (path.startsWith('/parsed/')) {
    return parsedListener(Object.assign(req, { body: await parseJsonBody(req) }), res);
  }
  if (path.startsWith('/fetch/')) {
    const body = await parseJsonBody(req);
    const response = await fetchHandler(
      new Request(new URL(path, origin), {
        method: req.method ?? 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    return void res.end(await response.text());
  }
  res.writeHead(404).end();
});

const { check, fail, finish } = checklist('Callback adapters example');

try {
  for (const prefix of ['node', 'parsed', 'fetch']) {
    console.log(`\n== Callback received at ${template(prefix)}`);
    const started = Date.now();
    const accepted = await momo.collection.requestToPay(
      { amount: '10', currency: 'EUR', payer: { partyIdType: 'MSISDN', partyId: '46733123999' } },
      { callbackUrl: template(prefix) },
    );
    const result = await accepted.wait();
    const elapsed = Date.now() - started;
    console.log(`   final: ${result.status} after ${elapsed} ms`);
    check(
      received.includes(`${prefix} ${accepted.referenceId}`),
      'onEvent called by this receiver',
    );
    check(elapsed < FIRST_POLL_MS, 'the callback ended the wait');
  }

  // The simulator records each receiver's answer once it has arrived.
  for (let i = 0; i < 250 && sim.callbacks.some((c) => c.status === undefined); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answers = sim.callbacks.map((c) => c.status ?? c.error);
  console.log(`\nThe receivers answered the simulator: ${answers.join(', ')}`);
  // 202: accepted at once, confirmed by its status lookup after the answer.
  check(answers.length === 3 && answers.every((a) => a === 202), 'every callback answered 202');
} catch (error) {
  fail(error);
} finally {
  receiver.close();
  await server.close();
}

finish();
