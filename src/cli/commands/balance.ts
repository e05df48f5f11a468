import { defineCommand } from '../command';
import { CONNECTION_HELP } from '../env';
import { ExitCode } from '../output';

const USAGE = `Usage: momo-partner-sdk balance <product> [options]

Prints the balance of your account for a product (GET /<product>/v1_0/account/balance,
or .../balance/<currency> with --currency).

  <product>          disbursement, collection or remittance
  --currency <code>  the balance in that currency (ISO 4217)
  -h, --help         show this help
  -v, --version      print the version

${CONNECTION_HELP}`;

export const balanceCommand = defineCommand({
  name: 'balance',
  summary: 'print the account balance of a product',
  usage: USAGE,
  connection: true,
  flags: { currency: { type: 'string' } },
  positionals: { min: 1, max: 1, names: '<product>' },
  async run(command) {
    const product = command.product();
    const currency = command.args.text('currency');
    const momo = command.client(product);
    // Every product of the client has getBalance(currency?): so has the command.
    const balance = await momo[product].getBalance(...(currency === undefined ? [] : [currency]));
    command.print(balance, `${product} balance: ${balance.availableBalance} ${balance.currency}\n`);
    return ExitCode.ok;
  },
});
