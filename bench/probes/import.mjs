/**
 * Plain child (argv: mode, server url): start-up cost in a fresh process. Prints, as JSON,
 * the milliseconds spent in this process on:
 * - `none`: nothing (the baseline of the wall-time deltas);
 * - `sdk`: `await import('momo-partner-sdk')`;
 * - `sdk-call`: that import, then a client's first call (`getBalance`: token, then balance);
 * - `fetch-call`: the same two requests with the global `fetch`.
 */
import { credentials, limits } from '../lib/config.mjs';

const [mode, url] = process.argv.slice(2);
const started = performance.now();
if (mode === 'sdk' || mode === 'sdk-call') {
  const { MomoClient } = await import('momo-partner-sdk');
  if (mode === 'sdk-call') {
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
} else if (mode !== 'none') {
  throw new Error(`unknown mode ${mode}`);
}
console.log(JSON.stringify({ ms: performance.now() - started }));
process.exit(0); // keep-alive sockets must not hold the process: only start-up is measured
