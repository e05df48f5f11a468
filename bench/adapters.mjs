/**
 * node bench/adapters.mjs [rounds]   (no build needed; any Node >= 20.19)
 *
 * Chooses the fetch the SDK gives ky on Node: src/core/node-fetch (node:http Agents) against a
 * fetch written on undici's request() (below, ~40 lines), both against raw globalThis.fetch, in
 * one run on one machine. Every figure is also a ratio to raw fetch measured in the same run.
 *
 * - Throughput: a keep-alive loopback server in a child process; sequential GETs, 32-way GETs,
 *   32-way POSTs of a 200-byte JSON body; each adapter called directly and through ky (set up
 *   as the SDK's transport sets it up). Rounds alternate the contenders; medians are shown.
 * - Cold start: import of each adapter's bundle in a fresh process (median of 7).
 * - Size: each adapter bundled with its dependencies (esbuild --bundle --minify
 *   --platform=node), gzipped.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The API stand-in: a balance lookup (200, small JSON) and a creating call (202, no body). */
function serve() {
  const balance = JSON.stringify({ availableBalance: '1000.00', currency: 'EUR' });
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () => res.writeHead(202, { 'content-length': '0' }).end());
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': balance.length });
    res.end(balance);
  });
  server.listen(0, '127.0.0.1', 1024, () => process.send(server.address().port));
}

/** A fetch on undici's request(): the contender, bundled on its own like the adapter. */
const UNDICI_ADAPTER = `
import { Agent, request } from 'undici';
const nullBody = new Set([101, 103, 204, 205, 304]);
export function createUndiciFetch({ maxSockets }) {
  const dispatcher = new Agent({ connections: maxSockets, keepAliveTimeout: 4000 });
  const undiciFetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const headers = {};
    req.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const raw = init?.momoRawBody;
    const body =
      typeof raw === 'string' ? raw : req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    let res;
    try {
      res = await request(req.url, { method: req.method, headers, body, signal: req.signal, dispatcher });
    } catch (error) {
      if (req.signal.aborted) throw req.signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
      else if (value !== undefined) responseHeaders.append(name, value);
    }
    const bytes = await res.body.arrayBuffer();
    const empty = nullBody.has(res.statusCode) || req.method === 'HEAD';
    return new Response(empty ? null : bytes, { status: res.statusCode, headers: responseHeaders });
  };
  return Object.assign(undiciFetch, { close: () => dispatcher.close() });
}
`;

async function main() {
  const rounds = Number(process.argv[2] ?? 7);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'momo-adapters-'));
  const server = fork(fileURLToPath(import.meta.url), ['--server']);
  try {
    const port = await new Promise((resolve) => server.once('message', resolve));
    const base = `http://127.0.0.1:${port}`;
    const bundles = await bundle(root, dir);
    const cold = {};
    for (const name of ['raw fetch', ...Object.keys(bundles)]) {
      const file = bundles[name];
      cold[name] = {
        bytes: file ? gzipSync(readFileSync(file)).length : 0,
        ...coldStart(file, `${base}/disbursement/v1_0/account/balance`),
      };
    }
    const { createNodeFetch } = await import(pathToFileURL(bundles['node:http adapter']).href);
    const { createUndiciFetch } = await import(pathToFileURL(bundles['undici adapter']).href);
    const { default: ky } = await import('ky');
    const nodeFetch = createNodeFetch({ maxSockets: 128 });
    const undiciFetch = createUndiciFetch({ maxSockets: 128 });
    // rawBody: the POST body goes to the adapter as init.momoRawBody and ky gets none.
    const contenders = [
      { name: 'raw fetch', fetch: globalThis.fetch, rawBody: false },
      { name: 'node:http adapter', fetch: nodeFetch, rawBody: true },
      { name: 'undici adapter', fetch: undiciFetch, rawBody: true },
      {
        name: 'node:http adapter, body in the Request',
        fetch: nodeFetch,
        rawBody: false,
        kyOnly: true,
      },
    ];
    const results = await throughput(base, contenders, ky, rounds);
    report({ rounds, cold, contenders, results });
    nodeFetch.close();
    await undiciFetch.close();
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function bundle(root, dir) {
  const { build } = await import('esbuild');
  const undiciEntry = join(dir, 'undici-adapter-source.mjs');
  writeFileSync(undiciEntry, UNDICI_ADAPTER);
  const entries = {
    'node:http adapter': join(root, 'src/core/node-fetch/index.ts'),
    'undici adapter': undiciEntry,
  };
  const out = {};
  for (const [name, entry] of Object.entries(entries)) {
    const outfile = join(dir, `${name.replace(/\W+/g, '-')}.bundle.mjs`);
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      nodePaths: [join(root, 'node_modules')],
      // undici is CommonJS: its require() calls of node: builtins need a require in ESM.
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
      logLevel: 'error',
    });
    out[name] = outfile;
  }
  return out;
}

/**
 * In a fresh process, ms to import the adapter's bundle, and ms from start to the first
 * lookup's body (import, create, first call: Node's fetch loads its undici on first use).
 * Medians of 7 processes, each timed from inside.
 */
function coldStart(file, url) {
  const load = file
    ? `const { createNodeFetch, createUndiciFetch } = await import(${JSON.stringify(pathToFileURL(file).href)});
       const imported = performance.now() - t;
       const fetch = (createNodeFetch ?? createUndiciFetch)({ maxSockets: 128 });`
    : 'const imported = 0; const fetch = globalThis.fetch;';
  const script = `const t = performance.now(); ${load}
    await (await fetch(${JSON.stringify(url)})).text();
    console.log(JSON.stringify([imported, performance.now() - t])); process.exit(0);`;
  const imports = [];
  const firstCalls = [];
  for (let i = 0; i < 7; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script]);
    const [imported, firstCall] = JSON.parse(out.toString());
    imports.push(imported);
    firstCalls.push(firstCall);
  }
  return { importMs: median(imports), firstCallMs: median(firstCalls) };
}

const payload = JSON.stringify({
  amount: '1000',
  currency: 'EUR',
  externalId: '6353636',
  payee: { partyIdType: 'MSISDN', partyId: '46733123454' },
  payerMessage: 'Pay for product a',
  payeeNote: 'payer note',
}).padEnd(200, ' ');
const jsonHeaders = { 'content-type': 'application/json', authorization: 'Bearer abc.def' };

/** One call per contender and workload; ky is set up as the SDK's transport sets it up. */
function callers(base, { fetch, rawBody }, ky) {
  const api = ky.create({ fetch, timeout: 30_000, retry: 0, throwHttpErrors: false });
  const get = `${base}/disbursement/v1_0/account/balance`;
  const post = `${base}/disbursement/v1_0/deposit`;
  return {
    direct: {
      get: async () => (await fetch(get, { headers: jsonHeaders })).text(),
      post: async () =>
        (await fetch(post, { method: 'POST', headers: jsonHeaders, body: payload })).text(),
    },
    ky: {
      get: async () => (await api.get(get, { headers: jsonHeaders })).text(),
      post: async () =>
        (
          await api.post(post, {
            headers: jsonHeaders,
            ...(rawBody ? { momoRawBody: payload } : { body: payload }),
          })
        ).text(),
    },
  };
}

const workloads = [
  { name: 'sequential GETs', method: 'get', width: 1, calls: 1_000 },
  { name: '32-way GETs', method: 'get', width: 32, calls: 3_200 },
  { name: '32-way POSTs', method: 'post', width: 32, calls: 3_200 },
];

/** ops/s (wall clock) and this process's CPU µs per call (the server runs elsewhere). */
async function run(call, width, calls) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let left = calls;
  const worker = async () => {
    while (left-- > 0) await call();
  };
  await Promise.all(Array.from({ length: width }, worker));
  const used = process.cpuUsage(cpu);
  return {
    ops: (calls / (performance.now() - started)) * 1000,
    cpu: (used.user + used.system) / calls,
  };
}

async function throughput(base, contenders, ky, rounds) {
  const samples = {};
  for (const via of ['direct', 'ky']) {
    const field = contenders.filter((c) => via === 'ky' || !c.kyOnly);
    const calls = field.map((c) => callers(base, c, ky)[via]);
    for (const w of workloads) {
      // Warm-up: JIT, sockets.
      for (const call of calls) await run(call[w.method], w.width, w.calls / 2);
      for (let r = 0; r < rounds; r++) {
        // Rotate the order each round so no contender always runs first or last.
        for (let i = 0; i < field.length; i++) {
          const at = (i + r) % field.length;
          const key = `${via}|${w.name}|${field[at].name}`;
          samples[key] ??= [];
          samples[key].push(await run(calls[at][w.method], w.width, w.calls));
        }
      }
    }
  }
  return samples;
}

function report({ rounds, cold, contenders, results }) {
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load average ${load.join(' ')} at the end; ${rounds} rounds, medians`,
  );
  console.log('| via | workload | contender | ops/s | vs raw fetch | CPU µs/call | vs raw fetch |');
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
  for (const via of ['direct', 'ky']) {
    for (const w of workloads) {
      const raw = results[`${via}|${w.name}|raw fetch`];
      const rawOps = median(raw.map((s) => s.ops));
      const rawCpu = median(raw.map((s) => s.cpu));
      for (const { name } of contenders) {
        const mine = results[`${via}|${w.name}|${name}`];
        if (!mine) continue;
        const ops = median(mine.map((s) => s.ops));
        const cpu = median(mine.map((s) => s.cpu));
        console.log(
          `| ${via} | ${w.name} | ${name} | ${Math.round(ops)} | ${(ops / rawOps).toFixed(2)}x | ${Math.round(cpu)} | ${(cpu / rawCpu).toFixed(2)}x |`,
        );
      }
    }
  }
  console.log('\n| contender | import, ms | import to first answer, ms | bundle min+gzip, bytes |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, c] of Object.entries(cold)) {
    console.log(
      `| ${name} | ${c.importMs.toFixed(1)} | ${c.firstCallMs.toFixed(1)} | ${c.bytes || 'built in'} |`,
    );
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Last, so that every constant above is initialised before main() runs.
if (process.argv[2] === '--server') serve();
else await main();
