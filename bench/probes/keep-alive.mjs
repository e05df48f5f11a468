/**
 * Plain child (no IPC, nothing else alive; argv: server url): one deposit awaited with
 * `.wait()` while the server settles it 2 s later. Pending waits must keep the process
 * alive: it has to print the result and then exit 0 on its own, not exit early.
 */
import { MomoClient } from 'momo-partner-sdk';
import { sdkOptions } from '../clients/sdk.mjs';
import { credentials, depositBody } from '../lib/config.mjs';

const momo = new MomoClient(sdkOptions(process.argv[2], credentials));
const result = await momo.disbursement.deposit(depositBody).wait();
console.log(JSON.stringify({ status: result.status }));
