import { describe, expect, it } from 'vitest';
import { rawClient, type Sim, simulator, uuidv4 } from './helpers';
import { mmBody } from './standard-helpers';

const statusPath = (type: string, id: string) =>
  `/collection/v1_2/mm/accounts/${type}/${encodeURIComponent(id)}/status`;

/** Only the subscription key and the routing header (Authorization is optional here). */
function get(sim: Sim, path: string, headers: Record<string, string> = {}) {
  return sim.fetch(`${sim.credentials.baseUrl}${path}`, {
    headers: {
      'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
      'X-Account-Holding-Institution-Identifier': sim.credentials.targetEnvironment,
      ...headers,
    },
  });
}

describe('simulator: account status (spec 4.11)', () => {
  it.each([
    ['msisdn', '46700000001', 'available'],
    ['msisdn', '46733123456', 'unavailable'],
    ['accountid', uuidv4(), 'available'],
    ['emailaddress', 'a@b.example', 'available'],
    ['emailaddress', 'unavailable@b.example', 'unavailable'],
    ['identityalias', 'shop-42', 'available'],
    ['identityalias', 'unavailable-shop', 'unavailable'],
  ])('%s %s is %s', async (type, id, accountStatus) => {
    const sim = simulator();
    const response = await get(sim, statusPath(type, id));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accountStatus });
  });

  it('accepts a collection Bearer token, and refuses a bad one with 401', async () => {
    const sim = simulator();
    const token = await rawClient(sim).token('collection');
    const path = statusPath('msisdn', '46700000001');
    expect((await get(sim, path, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get(sim, path, { Authorization: 'Bearer forged' })).status).toBe(401);
  });

  it.each([
    ['an unknown identifierType', statusPath('iban', 'SE123'), 'IdentifierError'],
    ['a malformed MSISDN', statusPath('msisdn', 'abc'), 'FormatError'],
    ['a malformed account id', statusPath('accountid', 'not-a-uuid'), 'FormatError'],
    ['a malformed e-mail', statusPath('emailaddress', 'nope'), 'FormatError'],
    [
      'an identifier over 256 characters',
      statusPath('identityalias', 'a'.repeat(257)),
      'LengthError',
    ],
  ])('answers 400 Validation (7.2) to %s', async (_, path, errorCode) => {
    const sim = simulator();
    const response = await get(sim, path);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(mmBody('Validation', errorCode));
  });

  it('is routed by X-Account-Holding-Institution-Identifier, not X-Target-Environment', async () => {
    const sim = simulator();
    const path = statusPath('msisdn', '46700000001');
    const missing = await sim.fetch(`${sim.credentials.baseUrl}${path}`, {
      headers: {
        'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
        'X-Target-Environment': sim.credentials.targetEnvironment,
      },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(mmBody('Validation', 'MandatoryValueNotSupplied'));
    const wrong = await get(sim, path, { 'X-Account-Holding-Institution-Identifier': 'other' });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual(mmBody('Identification', 'IdentifierError'));
  });
});

describe('simulator: heartbeat (spec 4.17)', () => {
  it('answers 200 {serviceStatus: available} without Authorization or routing header', async () => {
    const sim = simulator();
    const response = await sim.fetch(`${sim.credentials.baseUrl}/collection/v1.2/mm/Heartbeat`, {
      headers: { 'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ serviceStatus: 'available' });
  });

  it('checks a given Bearer token and the subscription key', async () => {
    const sim = simulator();
    const path = '/collection/v1.2/mm/Heartbeat';
    expect((await get(sim, path, { Authorization: 'Bearer forged' })).status).toBe(401);
    const noKey = await sim.fetch(`${sim.credentials.baseUrl}${path}`);
    expect(noKey.status).toBe(401);
  });
});
