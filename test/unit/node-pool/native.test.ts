import { setupServer } from 'msw/node';
import { Agent, interceptors, MockAgent, ProxyAgent, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNativeFetch } from '../../../src/core/node-pool';
import { loadNodePath } from '../../../src/core/sender';

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const globals = globalThis as unknown as Record<symbol, unknown> & { fetch: typeof fetch };
const nodeFetch = globalThis.fetch;
const nodeDispatcher = globals[DISPATCHER];

afterEach(() => {
  globals.fetch = nodeFetch;
  globals[DISPATCHER] = nodeDispatcher;
});

describe('isNativeFetch', () => {
  it("is true in plain Node, after Node's fetch has been used", async () => {
    expect(isNativeFetch()).toBe(true);
    await globalThis.fetch('http://127.0.0.1:1/').catch(() => undefined);
    expect(isNativeFetch()).toBe(true);
  });

  it("is false while msw intercepts fetch, and true again after msw's close()", () => {
    const msw = setupServer();
    msw.listen({ onUnhandledRequest: 'bypass' });
    try {
      expect(globalThis.fetch).not.toBe(nodeFetch);
      expect(isNativeFetch()).toBe(false);
    } finally {
      msw.close();
    }
    expect(isNativeFetch()).toBe(true);
  });

  it("is false with a partner's own fetch, a Proxy of Node's or a bound copy", () => {
    globals.fetch = async (input, init) => nodeFetch(input, init);
    expect(isNativeFetch()).toBe(false);
    globals.fetch = new Proxy(nodeFetch, {});
    expect(isNativeFetch()).toBe(false);
    globals.fetch = nodeFetch.bind(globalThis);
    expect(isNativeFetch()).toBe(false);
    globals.fetch = nodeFetch;
    expect(isNativeFetch()).toBe(true);
  });

  it('is false while another undici global dispatcher is installed', () => {
    expect(nodeDispatcher).toBeDefined();
    globals[DISPATCHER] = { dispatch() {} };
    expect(isNativeFetch()).toBe(false);
    globals[DISPATCHER] = nodeDispatcher;
    expect(isNativeFetch()).toBe(true);
  });

  it("is false with a partner's dispatcher set through undici's setGlobalDispatcher", () => {
    const partners = [
      new Agent({ connect: { ca: 'a private CA' } }),
      new Agent({ connections: 4 }),
      new Agent().compose(interceptors.retry()),
      new ProxyAgent('http://127.0.0.1:3128'),
      new MockAgent(),
    ];
    for (const dispatcher of partners) {
      setGlobalDispatcher(dispatcher);
      expect(isNativeFetch(), dispatcher.constructor.name).toBe(false);
    }
    // An Agent with no options is what Node installs itself: nothing for the fast path to honour.
    setGlobalDispatcher(new Agent());
    expect(isNativeFetch()).toBe(true);
  });

  // The variables are read at most once a second (process.env reads cost per call).
  it.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'])(
    'is false within a second of %s being set, and true again a second after it goes',
    (name) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const before = process.env[name];
      isNativeFetch();
      process.env[name] = 'http://127.0.0.1:3128';
      try {
        vi.advanceTimersByTime(1_000);
        expect(isNativeFetch()).toBe(false);
      } finally {
        if (before === undefined) delete process.env[name];
        else process.env[name] = before;
      }
      expect(isNativeFetch()).toBe(false); // still within the second
      vi.advanceTimersByTime(1_000);
      expect(isNativeFetch()).toBe(true);
      vi.useRealTimers();
    },
  );
});

// Bun and Deno are told apart once, when the Node path loads: isNativeFetch runs on Node only.
describe('the Node path outside Node', () => {
  it('is not loaded under Deno or Bun, whose fetch is their own', async () => {
    const runtime = globalThis as { Deno?: unknown };
    runtime.Deno = { version: { deno: '2.0.0' } };
    try {
      expect(await loadNodePath(8)).toBeUndefined();
    } finally {
      delete runtime.Deno;
    }
    const versions = process.versions as Record<string, string | undefined>;
    versions.bun = '1.2.0';
    try {
      expect(await loadNodePath(8)).toBeUndefined();
    } finally {
      delete versions.bun;
    }
    const node = await loadNodePath(8);
    expect(node?.usable()).toBe(true);
    node?.pool.close();
  });
});
