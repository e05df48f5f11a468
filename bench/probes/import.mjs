/**
 * Plain child (argv: mode, server url): start-up cost in a fresh process. Prints, as JSON,
 * the milliseconds spent in this process on:
 * - `none`: nothing (the baseline of the wall-time deltas);
 * - `sdk`: `await import('momo-partner-sdk')`;
 * - `sdk-call`: that import, then a client's first call (`getBalance`: token, then balance);
 * - `fetch-call`: the same two requests with the global `fetch`;
 * - `http-call`: the same two requests with `node:http` and a keep-alive Agent, loaded with
 *   `process.getBuiltinModule` as the SDK loads it: on Node 24 an ESM `import` of
 *   `node:http` alone takes about 40 ms (its namespace loads Node's fetch stack), which
 *   would flatter every ratio against this baseline;
 * - `compare-sdk`, `compare-sdk-call`: `sdk` and `sdk-call` with the build in BENCH_COMPARE.
 */
import { pathToFileURL } from 'node:url';
import { credentials, limits } from '../lib/config.mjs';

const [mode, url] = process.argv.slice(2);
// Resolved before the clock starts, like the package name the other modes import.
const compared = mode.startsWith('compare-')
  ? pathToFileURL(`${process.env.BENCH_COMPARE}/dist/index.js`).href
  : undefined;
const started = performance.now();
if (mode === 'sdk' || mode === 'sdk-call' || compared) {
  const { MomoClient } = await import(compared ?? 'momo-partner-sdk');
  if (mode.endsWith('sdk-call')) {
    await new MomoClient({ baseUrl: url, ...credentials, ...limits }).disbursement.getBalance();
  }
} else if (mode === 'fetch-call') {
  const { subscriptionKey, apiUser, targetEnvironment } = credentials;
  const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
  const tokenResponse = await fetch(`${url}/disbursement/token/`, {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Ocp-Apim-Subscription-Key': subscriptionKey },
  });
  const { access_token: token } = await tokenResponse.json();
  const balance = await fetch(`${url}/disbursement/v1_0/account/balance`, {
    headers: {
      Authorization: `Bearer ${token}`,
      'Ocp-Apim-Subscription-Key': subscriptionKey,
      'X-Target-Environment': targetEnvironment,
    },
  });
  if (balance.status !== 200) throw new Error(`balance: ${balance.status}`);
  await balance.json();
} else if (mode === 'http-call') {
  const http = process.getBuiltinModule('node:http');
  const agent = new http.Agent({ keepAlive: true });
  const { subscriptionKey, apiUser, targetEnvironment } = credentials;
  const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
  const send = (method, path, headers) =>
    new Promise((resolve, reject) => {
      const request = http.request(`${url}${path}`, { method, agent, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end();
    });
  const token = await send('POST', '/disbursement/token/', {
    Authorization: `Basic ${basic}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'Content-Length': '0',
  });
  const balance = await send('GET', '/disbursement/v1_0/account/balance', {
    Authorization: `Bearer ${token.body.access_token}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'X-Target-Environment': targetEnvironment,
  });
  if (balance.status !== 200) throw new Error(`balance: ${balance.status}`);
} else if (mode !== 'none') {
  throw new Error(`unknown mode ${mode}`);
}
console.log(JSON.stringify({ ms: performance.now() - started }));
process.exit(0); // keep-alive sockets must not hold the process: only start-up is measured
