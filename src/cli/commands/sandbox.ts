import { SANDBOX_BASE_URL, Sandbox } from '../../sandbox/sandbox';
import { flagOrEnv } from '../args';
import { defineCommand } from '../command';
import { ExitCode, UsageError } from '../output';

const USAGE = `Usage: momo-partner-sdk sandbox provision [options]

Creates an API user and its API key in the provider's sandbox (the sandbox gives a
partner only a subscription key). Prints the id and key, ready for MOMO_API_USER and
MOMO_API_KEY.

Options (flags override the environment):
  --subscription-key <key>   MOMO_SUBSCRIPTION_KEY: a sandbox subscription key (required)
  --callback-host <host>     MOMO_CALLBACK_HOST: your callback host name, e.g.
                             partner.example, no scheme, no path (required)
  --base-url <url>           MOMO_BASE_URL (default ${SANDBOX_BASE_URL})
  --reference-id <uuid>      the new user's id (UUID v4); run again with the same id
                             to resume a run that stopped before the key was made
  --env                      print exactly two lines, MOMO_API_USER=... and
                             MOMO_API_KEY=..., for a .env file
  --json                     print {"id":"...","key":"..."}
  -h, --help                 show this help
  -v, --version              print the version

The API key is printed because you asked for it: keep that output private.
`;

export const sandboxProvisionCommand = defineCommand({
  name: 'sandbox provision',
  summary: 'create a sandbox API user and API key (MOMO_API_USER, MOMO_API_KEY)',
  usage: USAGE,
  flags: {
    'subscription-key': { type: 'string' },
    'callback-host': { type: 'string' },
    'base-url': { type: 'string' },
    'reference-id': { type: 'string' },
    env: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(command) {
    const { args, io } = command;
    if (args.flag('env') && command.json) {
      throw new UsageError('--env and --json cannot be combined');
    }
    const subscriptionKey = flagOrEnv(
      args.text('subscription-key'),
      io.env,
      'MOMO_SUBSCRIPTION_KEY',
    );
    const host = flagOrEnv(args.text('callback-host'), io.env, 'MOMO_CALLBACK_HOST');
    if (!subscriptionKey) {
      throw new UsageError('Missing --subscription-key (or MOMO_SUBSCRIPTION_KEY).');
    }
    if (!host) throw new UsageError('Missing --callback-host (or MOMO_CALLBACK_HOST).');
    const sandbox = new Sandbox({
      subscriptionKey,
      baseUrl: flagOrEnv(args.text('base-url'), io.env, 'MOMO_BASE_URL', SANDBOX_BASE_URL),
    });
    const referenceId = args.text('reference-id');
    const { id, key } = await sandbox.provision(
      { providerCallbackHost: host },
      referenceId === undefined ? {} : { referenceId },
    );
    if (args.flag('env')) io.out(`MOMO_API_USER=${id}\nMOMO_API_KEY=${key}\n`);
    else
      command.print(
        { id, key },
        [
          `Created sandbox API user ${id} (callback host ${host}).`,
          '',
          `  MOMO_API_USER=${id}`,
          `  MOMO_API_KEY=${key}`,
          '',
          'Use them with MOMO_TARGET_ENVIRONMENT=sandbox and the same subscription key.',
          'Keep the API key private; running this again makes a new user.',
          '',
        ].join('\n'),
      );
    return ExitCode.ok;
  },
});
