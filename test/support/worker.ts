/**
 * The child's side of the multi-process tests' IPC (the parent's: `Instance` in
 * test/redis/support/instances.ts): the parent calls a method by name and gets its
 * result or its error back; the child may also send logs and events of its own.
 */

/** Sends a message to the parent process (nothing when run alone). */
export const send = (message: unknown) => process.send?.(message);

/** Answers the parent's calls with these methods, then says it has started. */
export function serveParent(handlers: Record<string, (input: never) => Promise<unknown>>): void {
  process.on('message', async (message: { id: number; method: string; input: never }) => {
    const handler = handlers[message.method];
    try {
      if (!handler) throw new Error(`no such method: ${message.method}`);
      send({ type: 'reply', id: message.id, result: await handler(message.input) });
    } catch (error) {
      send({ type: 'reply', id: message.id, error: String(error) });
    }
  });
  send({ type: 'started' });
}
