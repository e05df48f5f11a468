import { isValidationError, type ValidationError } from 'momo-partner-sdk';
import type { createSimulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';

export type Sim = ReturnType<typeof createSimulator>;

/** The ValidationError `call` throws; nothing (not even a token request) was sent. */
export async function refused(sim: Sim, call: () => Promise<unknown>): Promise<ValidationError> {
  const error = await call().then(
    () => {
      throw new Error('expected a ValidationError');
    },
    (e: unknown) => e,
  );
  if (!isValidationError(error)) throw error;
  expect(error.message).toContain('Nothing was sent');
  expect(sim.requests).toEqual([]);
  return error;
}

/** A deposit sent raw to the simulator (no client-side checks), with a valid token. */
export async function rawDeposit(sim: Sim, body: unknown): Promise<Response> {
  const token = await sim.client().disbursement.getAccessToken();
  return sim.fetch(`${sim.credentials.baseUrl}/disbursement/v1_0/deposit`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token.accessToken}`,
      'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
      'X-Target-Environment': sim.credentials.targetEnvironment,
      'X-Reference-Id': crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  });
}
