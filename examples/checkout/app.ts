/**
 * A partner's checkout, as small as it gets: accept a payment with a request to pay, keep
 * the order by its reference id, settle it from the service's callback, show its status,
 * and reconcile what was left pending. node:http only, so it runs anywhere; the routes
 * map one to one onto Express or Fastify. `app.test.ts` (vitest) and
 * `app.jest.test.js` (Jest) test it against the simulator over real HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import {
  isNotFoundError,
  isValidationError,
  type MomoClient,
  toNodeListener,
} from 'momo-partner-sdk';

export type OrderStatus = 'PENDING' | 'PAID' | 'DECLINED';

export interface Order {
  orderId: string;
  amount: string;
  referenceId: string;
  status: OrderStatus;
}

/**
 * Your database; a Map here (share one between app instances to play a restart). The
 * reference id is what ties an order to its payment.
 */
export class Orders {
  readonly #byReference = new Map<string, Order>();

  save(order: Order): void {
    this.#byReference.set(order.referenceId, order);
  }

  forget(referenceId: string): void {
    this.#byReference.delete(referenceId);
  }

  byReference(referenceId: string): Order | undefined {
    return this.#byReference.get(referenceId);
  }

  byOrderId(orderId: string): Order | undefined {
    return [...this.#byReference.values()].find((order) => order.orderId === orderId);
  }

  pending(): Order[] {
    return [...this.#byReference.values()].filter((order) => order.status === 'PENDING');
  }

  /** Settles the order of a payment; false when there is no such order. */
  settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED'): boolean {
    const order = this.#byReference.get(referenceId);
    if (order) order.status = status === 'SUCCESSFUL' ? 'PAID' : 'DECLINED';
    return order !== undefined;
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
        if (status !== 'SUCCESSFUL' && status !== 'FAILED') return;
        // Not acknowledged (500) rather than dropped: an outcome with no order to go to.
        if (!orders.settle(referenceId, status)) throw new Error(`no order for ${referenceId}`);
      },
      // Payments sent before a restart, unknown to this process: ours if we have the order.
      lookup: async (referenceId) =>
        orders.byReference(referenceId) && momo.collection.getRequestToPay(referenceId),
    }),
  );
  return async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/momo/callbacks/')) return void onCallback(req, res);
    if (req.method === 'POST' && url === '/checkout') {
      const { orderId, amount, msisdn } = JSON.parse(await read(req));
      // The reference id is chosen and stored with the order BEFORE the request is sent:
      // the callback may arrive before the 202 does, and must find its order.
      const referenceId = randomUUID();
      orders.save({ orderId, amount, referenceId, status: 'PENDING' });
      try {
        await momo.collection.requestToPay(
          {
            amount,
            currency,
            externalId: orderId,
            payer: { partyIdType: 'MSISDN', partyId: msisdn },
            payerMessage: `Order ${orderId}`,
          },
          { referenceId },
        );
      } catch (error) {
        // Bad input: refused before anything was sent, so there is nothing to reconcile.
        if (isValidationError(error)) orders.forget(referenceId);
        // Anything else may have reached the service: the order stays PENDING for reconcile().
        const status = isValidationError(error) ? 400 : 502;
        return void res
          .writeHead(status, JSON_TYPE)
          .end(JSON.stringify({ orderId, error: `${error}` }));
      }
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
 * Run at start-up and from time to time: every order still PENDING is looked up once by
 * its reference id, and settled if its payment is final. It reads your orders, not the
 * client's journal, so it works the same after a restart.
 */
export async function reconcile(momo: MomoClient, orders: Orders): Promise<number> {
  let settled = 0;
  for (const order of orders.pending()) {
    try {
      const payment = await momo.collection.getRequestToPay(order.referenceId);
      if (payment.status === 'SUCCESSFUL' || payment.status === 'FAILED') {
        orders.settle(order.referenceId, payment.status);
        settled++;
      }
    } catch (error) {
      // Not (yet) known to the service: the request may never have arrived. Ask next time.
      if (!isNotFoundError(error)) throw error;
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
