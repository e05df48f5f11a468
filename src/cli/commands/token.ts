import { defineCommand } from '../command';
import { CONNECTION_HELP, refusedCredential } from '../env';
import { environmentFix, isEnvironmentRefusal, probeEnvironment } from '../environment';
import { CliFailure, ExitCode } from '../output';

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

export const tokenCommand = defineCommand({
  name: 'token',
  summary: 'check credentials and target environment: get an access token',
  usage: USAGE,
  connection: true,
  flags: { 'show-token': { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: '<product>' },
  async run(command) {
    const { io } = command;
    const product = command.product();
    const { baseUrl, targetEnvironment } = command.connection();
    const progress = (text: string) => command.progress(`${product}: ${text}`);
    const momo = command.client(product);
    progress(`asking ${baseUrl} for a token (target environment ${targetEnvironment})...`);
    // Not command.explain: each step says only its own refusal, the second after "token issued".
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
    const show = command.args.flag('show-token');
    const expiresAt = token.expiresAt.toISOString();
    const checked =
      probe.via === 'balance'
        ? `a balance read answered ${probe.availableBalance} ${probe.currency}`
        : 'a status lookup was answered';
    command.print(
      {
        product,
        baseUrl,
        targetEnvironment,
        targetEnvironmentAccepted: true,
        tokenType: token.tokenType,
        expiresAt,
        expiresIn: token.expiresIn,
        accessToken: show ? token.accessToken : '[redacted]',
      },
      `${product}: token issued (type ${token.tokenType}), valid until ${expiresAt} (${token.expiresIn} s)\n` +
        `${product}: target environment ${targetEnvironment} accepted (${checked})\n` +
        (show ? `${token.accessToken}\n` : '(not shown; add --show-token to print it)\n'),
    );
    return ExitCode.ok;
  },
});
