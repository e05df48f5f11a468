import {
  type ApiUser,
  type MomoClientOptions,
  Sandbox,
  type SandboxApiKey,
  type SandboxUser,
  type SandboxUserInput,
} from 'momo-partner-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type { Output } from '../../src/schemas/lazy';
import type * as schemas from '../../src/schemas/sandbox';

describe('Sandbox types', () => {
  const sandbox = new Sandbox({ subscriptionKey: 'k' });

  it('provision gives what the apiUser option takes', () => {
    expectTypeOf(
      sandbox.provision({ providerCallbackHost: 'a.example' }),
    ).resolves.toEqualTypeOf<ApiUser>();
    expectTypeOf<ApiUser>().toExtend<NonNullable<MomoClientOptions['apiUser']>>();
  });

  it('createUser, createApiKey and getUser results are exact', () => {
    expectTypeOf(sandbox.createUser({ providerCallbackHost: 'a.example' })).resolves.toEqualTypeOf<{
      id: string;
    }>();
    expectTypeOf(sandbox.createApiKey('id')).resolves.toEqualTypeOf<SandboxApiKey>();
    expectTypeOf(sandbox.getUser('id')).resolves.toEqualTypeOf<SandboxUser>();
    expectTypeOf<SandboxUser>().toEqualTypeOf<{
      providerCallbackHost: string;
      targetEnvironment: string;
    }>();
  });

  it('options: a subscription key is required; a referenceId only on creating calls', () => {
    // @ts-expect-error subscriptionKey is required
    new Sandbox({});
    // @ts-expect-error createApiKey takes no referenceId
    sandbox.createApiKey('id', { referenceId: 'x' });
    // @ts-expect-error a typo in the input does not compile
    sandbox.createUser({ providerCallbackHst: 'a.example' });
  });
});

describe('sandbox types state what the schemas read', () => {
  it('SandboxUserInput and SandboxUser equal their schemas', () => {
    expectTypeOf<SandboxUserInput>().toEqualTypeOf<Output<typeof schemas.createUserBody>>();
    expectTypeOf<SandboxUser>().toEqualTypeOf<Output<typeof schemas.apiUserResult>>();
  });
});
