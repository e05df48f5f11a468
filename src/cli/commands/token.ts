import { parseCommand } from '../args';
import type { Command } from '../command';
import { CONNECTION_FLAGS, CONNECTION_HELP, clientFromEnv, productArg } from '../env';
import { ExitCode, printJson } from '../output';

const USAGE = `Usage: momo-partner-sdk token <product> [options]

Asks for an access token (POST /<product>/token/) to check that the credentials work.
The token itself is not printed unless --show-token is given.

  <product>       disbursement, collection or remittance
  --show-token    print the token too (human output and --json)
  -h, --help      show this help
  -v, --version   print the version

${CONNECTION_HELP}`;

export const tokenCommand: Command = {
  name: 'token',
  summary: 'check credentials: get an access token (shown only with --show-token)',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommand(
      argv,
      { ...CONNECTION_FLAGS, 'show-token': { type: 'boolean' } },
      { min: 1, max: 1, names: '<product>' },
    );
    const product = productArg(args.positionals[0] ?? '');
    const token = await clientFromEnv(io, args, product)[product].getAccessToken();
    const show = args.flag('show-token');
    const expiresAt = token.expiresAt.toISOString();
    if (args.flag('json')) {
      printJson(io, {
        product,
        tokenType: token.tokenType,
        expiresAt,
        expiresIn: token.expiresIn,
        accessToken: show ? token.accessToken : '[redacted]',
      });
    } else {
      io.out(
        `${product}: token issued (type ${token.tokenType}), valid until ${expiresAt} (${token.expiresIn} s)\n`,
      );
      io.out(show ? `${token.accessToken}\n` : '(not shown; add --show-token to print it)\n');
    }
    return ExitCode.ok;
  },
};
