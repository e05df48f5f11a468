import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { type ConfirmedCallback, MomoClient } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expressCallbacks } from '../../examples/frameworks/express';
import { fastifyCallbacks } from '../../examples/frameworks/fastify';
import { honoCallbacks } from '../../examples/frameworks/hono';
import { callbackRoute } from '../../examples/frameworks/next-route';

// Each framework wiring of the README, serving the simulator's real callbacks over HTTP on
// loopback: a request to pay (its callback is a PUT) and a deposit (a POST), each must
// reach onEvent confirmed SUCCESSFUL.

type OnEvent = (event: ConfirmedCallback) => void;
/** Builds the framework's app and gives it as a node:http listener. */
type Wiring = (momo: MomoClient, onEvent: OnEvent) => RequestListener | Promise<RequestListener>;

const route = (momo: MomoClient, onEvent: OnEvent) => {
  const { PUT, POST } = callbackRoute(momo, onEvent);
  // What Next does with a route file: the method's export gets the web Request.
  return getRequestListener((request) => (request.method === 'PUT' ? PUT : POST)(request));
};

const WIRINGS: [string, Wiring][] = [
  ['Express, no body parser', (momo, onEvent) => expressCallbacks(momo, onEvent)],
  ['Express behind express.json()', (m, e) => expressCallbacks(m, e, express.json())],
  [
    'Express behind express.raw()',
    (m, e) => expressCallbacks(m, e, express.raw({ type: 'application/json' })),
  ],
  [
    'Express behind express.text()',
    (m, e) => expressCallbacks(m, e, express.text({ type: 'application/json' })),
  ],
  [
    'Fastify, its default JSON parser',
    async (momo, onEvent) => {
      const app = fastifyCallbacks(momo, onEvent);
      await app.ready();
      return app.routing;
    },
  ],
  [
    'Fastify, a string parser for application/json',
    async (momo, onEvent) => {
      const app = fastifyCallbacks(momo, onEvent, { rawBody: true });
      await app.ready();
      return app.routing;
    },
  ],
  ['Hono', (momo, onEvent) => getRequestListener(honoCallbacks(momo, onEvent).fetch)],
  ['Next.js route handlers', route],
];

const sim = createSimulator({ settleMs: 20 });
let simulator: ListeningServer;
beforeAll(async () => {
  simulator = await sim.listen({ port: 0 });
});
afterAll(() => simulator.close());

describe.each(WIRINGS)('%s', (_name, wiring) => {
  it('gets the callbacks of a request to pay (PUT) and a deposit (POST), confirmed SUCCESSFUL', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
      const momo = new MomoClient({
        baseUrl: simulator.url,
        targetEnvironment,
        subscriptionKey,
        apiUser,
        callbackUrl: `http://127.0.0.1:${port}/momo/callbacks/{referenceId}`,
      });
      const events: ConfirmedCallback[] = [];
      server.on('request', await wiring(momo, (event) => void events.push(event)));
      const party = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
      const paid = await momo.collection.requestToPay({
        amount: '5',
        currency: 'EUR',
        payer: party,
      });
      const deposited = await momo.disbursement.deposit({
        amount: '5',
        currency: 'EUR',
        payee: party,
      });

      await vi.waitFor(() => expect(events).toHaveLength(2));
      const seen = events.map(({ referenceId, status, confirmed }) => ({
        referenceId,
        status,
        confirmed,
      }));
      expect(seen).toEqual(
        expect.arrayContaining([
          { referenceId: paid.referenceId, status: 'SUCCESSFUL', confirmed: true },
          { referenceId: deposited.referenceId, status: 'SUCCESSFUL', confirmed: true },
        ]),
      );
      // The answers the simulator got (recorded once each delivery ends): accepted at
      // once (202), each confirmed by its lookup after.
      const answers = () =>
        sim.callbacks.filter((c) => c.url.includes(`:${port}/`)).map((c) => [c.method, c.status]);
      await vi.waitFor(() =>
        expect(answers().sort()).toEqual([
          ['POST', 202],
          ['PUT', 202],
        ]),
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('docs/callbacks.md > Receiving callbacks', () => {
  const readme = readFileSync(new URL('../../docs/callbacks.md', import.meta.url), 'utf8');

  it.each(['express', 'fastify', 'hono', 'next-route'])(
    'shows examples/frameworks/%s.ts as it is',
    (name) => {
      const path = `examples/frameworks/${name}.ts`;
      const file = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
      const block = new RegExp(`\`\`\`ts file=${path}\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme);
      expect(block?.[1], `docs/callbacks.md has no \`\`\`ts file=${path} block`).toBe(file);
    },
  );
});
