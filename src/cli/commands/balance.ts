import { parseCommand } from '../args';
import type { Command } from '../command';
import { CONNECTION_FLAGS, CONNECTION_HELP, clientFromEnv, productArg } from '../env';
import { ExitCode, printJson } from '../output';

const USAGE = `Usage: momo-partner-sdk balance <product> [options]

Prints the balance of your account for a product (GET /<product>/v1_0/account/balance,
or .../balance/<currency> with --currency).

  <product>          disbursement, collection or remittance
  --currency <code>  the balance in that currency (ISO 4217)
  -h, --help         show this help
  -v, --version      print the version

${CONNECTION_HELP}`;

export const balanceCommand: Command = {
  name: 'balance',
  summary: 'print the account balance of a product',
  usage: USAGE,
  async run(argv, io) {
    const args = parseCommand(
      argv,
      { ...CONNECTION_FLAGS, currency: { type: 'string' } },
      { min: 1, max: 1, names: '<product>' },
    );
    const product = productArg(args.positionals[0] ?? '');
    const currency = args.text('currency');
    const momo = clientFromEnv(io, args, product);
    // Every product of the client has getBalance(currency?): so has the command.
    const balance = await momo[product].getBalance(...(currency === undefined ? [] : [currency]));
    if (args.flag('json')) printJson(io, balance);
    else io.out(`${product} balance: ${balance.availableBalance} ${balance.currency}\n`);
    return ExitCode.ok;
  },
};
