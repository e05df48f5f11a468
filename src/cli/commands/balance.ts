import { oneOf, parseCommand } from '../args';
import type { Command } from '../command';
import { CONNECTION_FLAGS, CONNECTION_HELP, clientFromEnv } from '../env';
import { ExitCode, printJson, UsageError } from '../output';

const USAGE = `Usage: momo-partner-sdk balance <product> [options]

Prints the balance of your account for a product (GET /<product>/v1_0/account/balance).

  <product>          disbursement or collection (the API has no remittance balance)
  --currency <code>  collection only: the balance in that currency (ISO 4217)
  -h, --help         show this help
  -v, --version      print the version

${CONNECTION_HELP}`;

const BALANCE_PRODUCTS = ['disbursement', 'collection'] as const;

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
    const product = oneOf(args.positionals[0] ?? '', BALANCE_PRODUCTS, 'product');
    const currency = args.text('currency');
    if (currency !== undefined && product !== 'collection') {
      throw new UsageError('--currency is for the collection balance only');
    }
    const momo = clientFromEnv(io, args, product);
    const balance =
      product === 'disbursement'
        ? await momo.disbursement.getBalance()
        : await momo.collection.getBalance(...(currency === undefined ? [] : [currency]));
    if (args.flag('json')) printJson(io, balance);
    else io.out(`${product} balance: ${balance.availableBalance} ${balance.currency}\n`);
    return ExitCode.ok;
  },
};
