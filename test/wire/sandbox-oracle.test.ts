import { fileURLToPath } from 'node:url';
import { Sandbox, UnexpectedResponseError } from 'momo-partner-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismMock, startPrism } from '../support/prism';

// The SDK's provisioning requests against a validating mock (Stoplight Prism) of the
// provider's own document: a request the mock finds fault with is a finding. (The
// document's 409 cannot be asked for with `Prefer: code=409`: its media type "ReferenceId
// already in use" makes Prism crash; test/wire/sandbox.test.ts covers the 409s.)
const DOCUMENT = fileURLToPath(
  new URL('../fixtures/oracle/sandbox-provisioning-api.json', import.meta.url),
);
let prism: PrismMock;

beforeAll(async () => {
  prism = await startPrism(DOCUMENT);
}, 40_000);
afterAll(() => prism?.close());

const sandbox = (maxRetries = 0) =>
  new Sandbox({
    baseUrl: prism.url,
    subscriptionKey: 'oracle-key',
    fetch: prism.fetch,
    maxRetries,
  });
const id = '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77';

function lastVerdict() {
  const verdict = prism.verdicts.at(-1);
  expect(verdict).toBeDefined();
  return verdict;
}

describe('Sandbox provisioning against the provider document (Prism)', () => {
  it('createUser passes: 201, no request violation', async () => {
    expect(await sandbox().createUser({ providerCallbackHost: 'partner.example' })).toEqual({
      id: expect.any(String),
    });
    expect(lastVerdict()).toMatchObject({
      path: '/v1_0/apiuser',
      status: 201,
      requestViolations: [],
    });
  });

  it('createApiKey passes: 201 {apiKey}', async () => {
    expect((await sandbox().createApiKey(id)).apiKey).toBe('string'); // the document's example
    expect(lastVerdict()).toMatchObject({
      path: `/v1_0/apiuser/${id}/apikey`,
      status: 201,
      requestViolations: [],
    });
  });

  it('getUser passes: 200 (the document shows no body, which the SDK reports)', async () => {
    await expect(sandbox().getUser(id)).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(lastVerdict()).toMatchObject({ status: 200, requestViolations: [] });
  });

  it('provision passes end to end', async () => {
    const before = prism.verdicts.length;
    const apiUser = await sandbox().provision({ providerCallbackHost: 'partner.example' });
    expect(apiUser.key).toBe('string');
    const verdicts = prism.verdicts.slice(before);
    expect(verdicts.map((v) => [v.method, v.status, v.requestViolations])).toEqual([
      ['POST', 201, []],
      ['POST', 201, []],
    ]);
  });

  it('the mock does validate: a create without X-Reference-Id is refused', async () => {
    const response = await prism.fetch(`${prism.url}/v1_0/apiuser`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': 'k', 'Content-Type': 'application/json' },
      body: JSON.stringify({ providerCallbackHost: 7 }),
    });
    expect(response.status).toBe(400);
    expect(lastVerdict()?.requestViolations).toEqual([
      expect.stringContaining('providerCallbackHost'),
      expect.stringContaining('x-reference-id'),
    ]);
  });
});
