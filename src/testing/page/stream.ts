import type { PageFeed } from './feed';

/** A comment line now and then keeps proxies and idle timeouts from closing the stream. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /_simulator/events`: server-sent events, a `state` event with the page's whole
 * snapshot as data, then a `change` event per change with what changed (diff.ts). The
 * stream ends when the page goes away (the reader cancels).
 */
export function eventStream(feed: PageFeed): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send('retry: 1000\n\n');
      const unsubscribe = feed.subscribe(({ event, data }) =>
        send(`event: ${event}\ndata: ${data}\n\n`),
      );
      const heartbeat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
      heartbeat.unref?.();
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
    },
  });
}
