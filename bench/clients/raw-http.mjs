/**
 * Baseline: the same requests as raw-fetch.mjs through `node:http` with a keep-alive
 * Agent (no socket cap), the cheapest way Node offers.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

export async function createRawHttpClient(url, { subscriptionKey, apiUser, targetEnvironment }) {
  const agent = new Agent({ keepAlive: true });
  const { hostname, port } = new URL(url);
  const send = (method, path, headers, body) =>
    new Promise((resolve, reject) => {
      const req = request({ agent, hostname, port, method, path, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
  const tokenAnswer = await send('POST', '/disbursement/token/', {
    Authorization: `Basic ${basic}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
  });
  if (tokenAnswer.status !== 200) throw new Error(`token: ${tokenAnswer.status}`);
  const token = JSON.parse(tokenAnswer.text).access_token;
  const headers = {
    Authorization: `Bearer ${token}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'X-Target-Environment': targetEnvironment,
  };
  const getJson = async (path) => {
    const answer = await send('GET', path, headers);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
    return JSON.parse(answer.text);
  };
  return {
    lookup: (referenceId) => getJson(`/disbursement/v1_0/deposit/${referenceId}`),
    balance: () => getJson('/disbursement/v1_0/account/balance'),
    async create(body) {
      const json = JSON.stringify(body);
      const answer = await send(
        'POST',
        '/disbursement/v1_0/deposit',
        {
          ...headers,
          'X-Reference-Id': randomUUID(),
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(json),
        },
        json,
      );
      if (answer.status !== 202) throw new Error(`POST deposit: ${answer.status}`);
    },
  };
}
