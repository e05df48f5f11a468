/**
 * Baseline: the requests a partner would write by hand with the global `fetch`, the same
 * headers the SDK sends (Bearer token, subscription key, target environment, a fresh
 * X-Reference-Id per creating call, a JSON body), each answer checked and read.
 */
import { randomUUID } from 'node:crypto';

export async function createRawFetchClient(url, { subscriptionKey, apiUser, targetEnvironment }) {
  const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
  const tokenResponse = await fetch(`${url}/disbursement/token/`, {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Ocp-Apim-Subscription-Key': subscriptionKey },
  });
  if (tokenResponse.status !== 200) throw new Error(`token: ${tokenResponse.status}`);
  const { access_token: token } = await tokenResponse.json();
  const headers = {
    Authorization: `Bearer ${token}`,
    'Ocp-Apim-Subscription-Key': subscriptionKey,
    'X-Target-Environment': targetEnvironment,
  };
  const getJson = async (path) => {
    const response = await fetch(url + path, { headers });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    return response.json();
  };
  return {
    lookup: (referenceId) => getJson(`/disbursement/v1_0/deposit/${referenceId}`),
    balance: () => getJson('/disbursement/v1_0/account/balance'),
    async create(body) {
      const response = await fetch(`${url}/disbursement/v1_0/deposit`, {
        method: 'POST',
        headers: { ...headers, 'X-Reference-Id': randomUUID(), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      if (response.status !== 202) throw new Error(`POST deposit: ${response.status}`);
    },
  };
}
