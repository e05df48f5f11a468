import { ConflictError, MomoClient, NotFoundError, Sandbox } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { UUID_V4, useWireSimulator } from '../support/wire';

// Sandbox provisioning on the wire: the real Sandbox class, through msw, against the
// simulator's handlers. Each test asserts method, exact path, headers, body and result.
const { sim, only, sent } = useWireSimulator();
const { subscriptionKey, baseUrl, targetEnvironment } = sim.credentials;
const sandbox = () => new Sandbox({ baseUrl, subscriptionKey });
const host = 'partner.example';

/** What every provisioning call carries: the subscription key only. */
function expectKeyOnly(headers: Readonly<Record<string, string>>) {
  expect(headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
  expect(headers.authorization).toBeUndefined();
  expect(headers['x-target-environment']).toBeUndefined();
}

describe('Sandbox provisioning on the wire', () => {
  it('createUser: POST /v1_0/apiuser with X-Reference-Id and {providerCallbackHost}, 201', async () => {
    const { id } = await sandbox().createUser({ providerCallbackHost: host });
    expect(id).toMatch(UUID_V4);
    const request = only('POST', '/v1_0/apiuser');
    expectKeyOnly(request.headers);
    expect(request.headers['x-reference-id']).toBe(id);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ providerCallbackHost: host });
  });

  it('createUser sends the caller’s referenceId as the user id', async () => {
    const referenceId = crypto.randomUUID();
    expect(await sandbox().createUser({ providerCallbackHost: host }, { referenceId })).toEqual({
      id: referenceId,
    });
    expect(only('POST', '/v1_0/apiuser').headers['x-reference-id']).toBe(referenceId);
  });

  it('createApiKey: POST /v1_0/apiuser/{id}/apikey without a body, 201 {apiKey}', async () => {
    const client = sandbox();
    const { id } = await client.createUser({ providerCallbackHost: host });
    const result = await client.createApiKey(id);
    expect(result.apiKey).toMatch(/^[0-9a-f]{32}$/);
    const request = only('POST', `/v1_0/apiuser/${id}/apikey`);
    expectKeyOnly(request.headers);
    expect(request.headers['x-reference-id']).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.body).toBeUndefined();
  });

  it('getUser: GET /v1_0/apiuser/{id}, 200 {providerCallbackHost, targetEnvironment}', async () => {
    const client = sandbox();
    const { id } = await client.createUser({ providerCallbackHost: host });
    expect(await client.getUser(id)).toEqual({ providerCallbackHost: host, targetEnvironment });
    const request = only('GET', `/v1_0/apiuser/${id}`);
    expectKeyOnly(request.headers);
    expect(request.body).toBeUndefined();
  });

  it('provision creates the user and its key: { id, key } for the apiUser option', async () => {
    const apiUser = await sandbox().provision({ providerCallbackHost: host });
    expect(apiUser).toEqual({ id: expect.stringMatching(UUID_V4), key: expect.any(String) });
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1_0/apiuser',
      `POST /v1_0/apiuser/${apiUser.id}/apikey`,
    ]);
  });

  it('provision, then a deposit awaited to SUCCESSFUL with the new API user', async () => {
    const apiUser = await sandbox().provision({ providerCallbackHost: host });
    const polling = { initialDelayMs: 20 };
    const momo = new MomoClient({ baseUrl, targetEnvironment, subscriptionKey, apiUser, polling });
    const result = await momo.disbursement
      .deposit({
        amount: '25',
        currency: 'EUR',
        payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
      })
      .wait();
    expect(result.status).toBe('SUCCESSFUL');
    const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
    expect(only('POST', '/disbursement/token/').headers.authorization).toBe(`Basic ${basic}`);
  });

  it('a new key replaces the previous one at the token endpoint', async () => {
    const client = sandbox();
    const first = await client.provision({ providerCallbackHost: host });
    await client.createApiKey(first.id);
    const stale = new MomoClient({ baseUrl, targetEnvironment, subscriptionKey, apiUser: first });
    await expect(stale.collection.getAccessToken()).rejects.toMatchObject({ status: 401 });
  });

  it('a retried createUser whose first answer was lost resolves on the 409 (it landed)', async () => {
    sim.inject({ match: 'POST /v1_0/apiuser', kind: 'drop-after-processing' });
    const client = new Sandbox({ baseUrl, subscriptionKey, maxRetries: 1 });
    const { id } = await client.createUser({ providerCallbackHost: host });
    const attempts = sent('POST', '/v1_0/apiuser');
    expect(attempts.map((r) => r.headers['x-reference-id'])).toEqual([id, id]);
    // The user exists once, and provisioning carries on with it.
    expect(await client.getUser(id)).toEqual({ providerCallbackHost: host, targetEnvironment });
    expect((await client.createApiKey(id)).apiKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a 409 on the first attempt is a ConflictError naming the id', async () => {
    const referenceId = crypto.randomUUID();
    await sandbox().createUser({ providerCallbackHost: host }, { referenceId });
    const error = await sandbox()
      .createUser({ providerCallbackHost: host }, { referenceId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'RESOURCE_ALREADY_EXIST', referenceId });
  });

  it('provision with the same referenceId resumes a run that stopped before the key', async () => {
    const referenceId = crypto.randomUUID();
    await sandbox().createUser({ providerCallbackHost: host }, { referenceId });
    const apiUser = await sandbox().provision({ providerCallbackHost: host }, { referenceId });
    expect(apiUser.id).toBe(referenceId);
    // Another host under that id is somebody else's user: the conflict stands.
    await expect(
      sandbox().provision({ providerCallbackHost: 'other.example' }, { referenceId }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('an unknown user is a NotFoundError for createApiKey and getUser (404)', async () => {
    const id = crypto.randomUUID();
    await expect(sandbox().createApiKey(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(sandbox().getUser(id)).rejects.toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    });
  });

  it('a wrong subscription key is refused (401)', async () => {
    const client = new Sandbox({ baseUrl, subscriptionKey: 'not-the-sandbox-key' });
    await expect(client.createUser({ providerCallbackHost: host })).rejects.toMatchObject({
      name: 'AuthenticationError',
      status: 401,
    });
  });
});
