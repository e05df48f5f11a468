/**
 * A partner's checkout, as small as it gets: accept a payment with a request to pay, keep
 * the order by its reference id, settle it from the service's callback, show its status,
 * and reconcile what was left pending. node:http only, so it runs anywhere; the routes
 * map one to one onto Express or Fastify. `app.test.ts` (vitest) and
 * `app.jest.test.js` (Jest) test it against the simulator over real HTTP.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import { type MomoClient, toNodeListener } from 'momo-partner-sdk';

export type OrderStatus = 'PENDING' | 'PAID' | 'DECLINED';

export interface Order {
  orderId: string;
  amount: string;
  referenceId: string;
  status: OrderStatus;
}

/** Your database; a Map here. The reference id is what ties an order to its payment. */
export class Orders {
  readonly #byReference = new Map<string, Order>();

  save(order: Order): void {
    this.#byReference.set(order.referenceId, order);
  }

  byReference(referenceId: string): Order | undefined {
    return this.#byReference.get(referenceId);
  }

  byOrderId(orderId: string): Order | undefined {
    return [...this.#byReference.values()].find((order) => order.orderId === orderId);
  }

  settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED'): void {
    const order = this.#byReference.get(referenceId);
    if (order) order.status = status === 'SUCCESSFUL' ? 'PAID' : 'DECLINED';
  }
}

/**
 * The app's routes: POST /checkout {orderId, amount, msisdn} asks the payer to approve;
 * PUT|POST /momo/callbacks/{referenceId} receives the outcome; GET /orders/{orderId}
 * shows it. Serve it with `createServer(checkout(momo, orders, 'EUR')).listen(8080)`,
 * the client's `callbackUrl` pointing at `https://<your host>/momo/callbacks/{referenceId}`.
 */
export function checkout(momo: MomoClient, orders: Orders, currency: string): RequestListener {
  const onCallback = toNodeListener(
    momo.callbacks.handler({
      // Only after the handler's own status lookup agreed with the callback.
      onEvent: ({ referenceId, status }) => {
        if (status === 'SUCCESSFUL' || status === 'FAILED') orders.settle(referenceId, status);
      },
    }),
  );
  return async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/momo/callbacks/')) return void onCallback(req, res);
    if (req.method === 'POST' && url === '/checkout') {
      const { orderId, amount, msisdn } = JSON.parse(await read(req));
      // Persist the reference id with the order as soon as the call is accepted.
      const { referenceId } = await momo.collection.requestToPay({
        amount,
        currency,
        externalId: orderId,
        payer: { partyIdType: 'MSISDN', partyId: msisdn },
        payerMessage: `Order ${orderId}`,
      });
      orders.save({ orderId, amount, referenceId, status: 'PENDING' });
      return void res.writeHead(202, JSON_TYPE).end(JSON.stringify({ orderId, referenceId }));
    }
    const order = /^\/orders\/([\w-]+)$/.exec(url)?.[1];
    if (req.method === 'GET' && order !== undefined) {
      const found = orders.byOrderId(order);
      if (!found) return void res.writeHead(404).end();
      return void res.writeHead(200, JSON_TYPE).end(JSON.stringify(found));
    }
    res.writeHead(404).end();
  };
}

/**
 * Run at start-up and from time to time: every request to pay the client sent and never
 * saw final is looked up once, and its order settled if it is.
 */
export async function reconcile(momo: MomoClient, orders: Orders): Promise<number> {
  let settled = 0;
  for (const entry of await momo.journal.pending()) {
    if (entry.operation !== 'collection.requestToPay') continue;
    const payment = await momo.collection.getRequestToPay(entry.referenceId);
    if (payment.status === 'SUCCESSFUL' || payment.status === 'FAILED') {
      orders.settle(entry.referenceId, payment.status);
      settled++;
    }
  }
  return settled;
}

const JSON_TYPE = { 'content-type': 'application/json' };

async function read(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}
