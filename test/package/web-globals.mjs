/**
 * The main entry where only web globals exist: bundled by esbuild for the browser, then
 * run in a `node:vm` context that has fetch, URL, AbortController, TextEncoder, crypto,
 * timers and the like, and no `process`, `Buffer`, `require`, `module` or `global`.
 * The simulator runs outside the context and hands its `fetch` in. The flow inside:
 * token, balance, a deposit awaited to SUCCESSFUL, bad input refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';

const WEB_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoderStream',
  'TextDecoderStream',
  'URL',
  'URLSearchParams',
  'AbortController',
  'AbortSignal',
  'DOMException',
  'Event',
  'EventTarget',
  'TextEncoder',
  'TextDecoder',
  'crypto',
  'performance',
  'queueMicrotask',
  'structuredClone',
  'console',
  'btoa',
  'atob',
];

const NODE_ONLY = ['process', 'Buffer', 'require', 'module', 'global', 'setImmediate', '__dirname'];

/** Browser timers answer numbers, not Node's Timeout objects (no unref/ref). */
function browserTimers() {
  const live = new Map();
  let next = 1;
  const start =
    (kind) =>
    (callback, ms, ...args) => {
      const id = next++;
      const handle = kind(
        (...a) => {
          if (kind === setTimeout) live.delete(id);
          callback(...a);
        },
        ms,
        ...args,
      );
      live.set(id, handle);
      return id;
    };
  const stop = (clear) => (id) => {
    clear(live.get(id));
    live.delete(id);
  };
  return {
    setTimeout: start(setTimeout),
    clearTimeout: stop(clearTimeout),
    setInterval: start(setInterval),
    clearInterval: stop(clearInterval),
  };
}

const flow = `
(async () => {
  const { MomoClient, isValidationError } = __momo;
  for (const name of ${JSON.stringify(NODE_ONLY)}) {
    if (typeof globalThis[name] !== 'undefined') throw new Error(name + ' leaked into the web context');
  }
  const momo = new MomoClient({ ...__credentials, fetch, polling: { initialDelayMs: 5, maxDelayMs: 20 } });
  const token = await momo.disbursement.getAccessToken();
  if (!token.accessToken) throw new Error('no token');
  const balance = await momo.disbursement.getBalance();
  if (typeof balance.availableBalance !== 'string') throw new Error('no balance');
  const payee = { partyIdType: 'MSISDN', partyId: '46733123999' };
  const result = await momo.disbursement.deposit({ amount: '5', currency: 'EUR', payee }).wait();
  if (result.status !== 'SUCCESSFUL') throw new Error('deposit ended ' + result.status);
  const refused = await momo.disbursement.deposit({ amount: 5, currency: 'EUR', payee }).catch((e) => e);
  if (!isValidationError(refused)) throw new Error('bad input was not refused');
  return result.status;
})()
`;

/** Returns a line for the report; throws when the flow fails. */
export async function checkWebGlobals(consumerDir) {
  const entry = esmEntry(consumerDir, '.');
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: '__momo',
    // A Node-only fast path may import node:* lazily: left out, and never evaluated here.
    external: ['node:*'],
    write: false,
    logLevel: 'silent',
  });
  const code = bundle.outputFiles[0].text;
  const { createSimulator } = await import(pathToFileURL(esmEntry(consumerDir, './testing')).href);
  const sim = createSimulator({ settleMs: 10 });
  const context = { ...browserTimers(), __credentials: sim.credentials };
  for (const name of WEB_GLOBALS) context[name] = globalThis[name];
  context.fetch = sim.fetch;
  vm.createContext(context);
  context.self = vm.runInContext('globalThis', context);
  vm.runInContext(code, context, { filename: 'momo-partner-sdk.browser.js' });
  const status = await vm.runInContext(flow, context, { filename: 'web-flow.js' });
  const kib = (Buffer.byteLength(code) / 1024).toFixed(1);
  return `token, balance, deposit ${status}, bad input refused (browser bundle ${kib} KiB)`;
}

/** The file an `import` of `momo-partner-sdk` + subpath loads in the installed package. */
function esmEntry(consumerDir, subpath) {
  const dir = join(consumerDir, 'node_modules', 'momo-partner-sdk');
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return join(dir, exports[subpath].import.default);
}
