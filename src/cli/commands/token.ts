import { parseCommand } from '../args';
import type { Command } from '../command';
import {
  CONNECTION_FLAGS,
  CONNECTION_HELP,
  clientFromEnv,
  connectionFromEnv,
  productArg,
  refusedCredential,
} from '../env';
import { environmentFix, isEnvironmentRefusal, probeEnvironment } from '../environment';
import { CliFailure, ExitCode, printJson } from '../output';

const USAGE = `Usage: momo-partner-sdk token <product> [options]

Asks for an access token (POST /<product>/token/) to check that the credentials work,
then makes one read that needs the target environment (the balance; for remittance, the
lookup of a transfer that does not exist), since the token request does not check it.
Progress goes to stderr. The token itself is not printed unless --show-token is given.

  <product>       disbursement, collection or remittance
  --show-token    print the token too (human output and --json)
  -h, --help      show this help
  -v, --version   print the version

${CONNECTION_HELP}`;

export const tokenCommand: Command = {
  name: 'token',
  summary: 'check credentials and target environment: get an access token',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommand(
      argv,
      { ...CONNECTION_FLAGS, 'show-token': { type: 'boolean' } },
      { min: 1, max: 1, names: '<product>' },
    );
    const product = productArg(args.positionals[0] ?? '');
    const json = args.flag('json');
    const { baseUrl, targetEnvironment } = connectionFromEnv(io, args);
    const progress = (text: string) => (json ? undefined : io.err(`${product}: ${text}\n`));
    const momo = clientFromEnv(io, args, product);
    progress(`asking ${baseUrl} for a token (target environment ${targetEnvironment})...`);
    const token = await momo[product].getAccessToken().catch((error: unknown) => {
      const refused = refusedCredential(error, io.env, product);
      throw refused ? new CliFailure(refused, ExitCode.api) : error;
    });
    progress(`token issued; checking that target environment ${targetEnvironment} is accepted...`);
    const probe = await probeEnvironment(momo, product).catch((error: unknown) => {
      if (!isEnvironmentRefusal(error)) throw error;
      throw new CliFailure(
        `${product}: token issued, but ${environmentFix(targetEnvironment)}`,
        ExitCode.api,
      );
    });
    const show = args.flag('show-token');
    const expiresAt = token.expiresAt.toISOString();
    if (json) {
      printJson(io, {
        product,
        baseUrl,
        targetEnvironment,
        targetEnvironmentAccepted: true,
        tokenType: token.tokenType,
        expiresAt,
        expiresIn: token.expiresIn,
        accessToken: show ? token.accessToken : '[redacted]',
      });
    } else {
      const checked =
        probe.via === 'balance'
          ? `a balance read answered ${probe.availableBalance} ${probe.currency}`
          : 'a status lookup was answered';
      io.out(
        `${product}: token issued (type ${token.tokenType}), valid until ${expiresAt} (${token.expiresIn} s)\n` +
          `${product}: target environment ${targetEnvironment} accepted (${checked})\n`,
      );
      io.out(show ? `${token.accessToken}\n` : '(not shown; add --show-token to print it)\n');
    }
    return ExitCode.ok;
  },
};
