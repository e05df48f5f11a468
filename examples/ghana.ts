/**
 * A Ghana partner rehearsing on the simulator with its own formats: target environment
 * `mtnghana`, cedis (GHS), Ghanaian numbers (`233` then nine digits). The simulator's magic
 * numbers work in any country's format: the last six digits decide (docs/simulator.md).
 * A school collects fees, checks a parent's account first, and pays a teacher.
 *
 *   npx tsx examples/ghana.ts     exits 0 when every step behaved, 1 otherwise
 */
import { normalizeMsisdn } from 'momo-partner-sdk';
import { checklist } from './support/checklist';
import { loopbackSimulator } from './support/loopback';

const { sim, server, momo } = await loopbackSimulator({
  settleMs: 200,
  targetEnvironment: 'mtnghana',
  currency: 'GHS',
});
const { check, fail, finish } = checklist('Ghana example');

/** A parent's number as a form gives it, in the SDK's form: digits, country code first. */
const parent = normalizeMsisdn('024 412 3999', { countryCode: '233' }); // 233244123999
const declining = '233244123451'; // ends 123451: the payer declines
const inactive = '233244123460'; // ends 123460: a blocked account, not active
const teacher = '233201234567';

try {
  console.log('== School fees: 450 GHS from a parent, awaited');
  check(parent === '233244123999', `the parent's number read as ${parent}`);
  const fees = await momo.collection
    .requestToPay({
      amount: '450',
      currency: 'GHS',
      externalId: 'fees-term-1',
      payer: { partyIdType: 'MSISDN', partyId: parent },
      payerMessage: 'School fees, term 1',
      payeeNote: 'Pupil 1042',
    })
    .wait();
  console.log(`   ${fees.status}, ${fees.amount} ${fees.currency}`);
  check(fees.status === 'SUCCESSFUL' && fees.currency === 'GHS', 'fees paid in GHS');

  console.log('\n== A parent who declines the prompt');
  const declined = await momo.collection
    .requestToPay({
      amount: '450',
      currency: 'GHS',
      payer: { partyIdType: 'MSISDN', partyId: declining },
    })
    .wait();
  console.log(
    `   ${declined.status}${declined.status === 'FAILED' ? ` ${declined.reason.code}` : ''}`,
  );
  check(declined.status === 'FAILED' && declined.reason.code === 'APPROVAL_REJECTED', 'declined');

  console.log('\n== Account checks before asking');
  const active = await momo.collection.isAccountHolderActive('msisdn', parent);
  const blocked = await momo.collection.isAccountHolderActive('msisdn', inactive);
  console.log(
    `   ${parent}: ${active ? 'active' : 'inactive'}; ${inactive}: ${blocked ? 'active' : 'inactive'}`,
  );
  check(active && !blocked, 'the blocked account is not active');

  console.log("\n== A teacher's allowance: 1200 GHS");
  const paid = await momo.disbursement
    .transfer({
      amount: '1200',
      currency: 'GHS',
      externalId: 'allowance-11',
      payee: { partyIdType: 'MSISDN', partyId: teacher },
      payerMessage: 'Allowance',
      payeeNote: 'November',
    })
    .wait();
  console.log(`   ${paid.status}`);
  check(paid.status === 'SUCCESSFUL', 'allowance paid');
  check(
    sim.transactions.every((tx) => tx.currency === 'GHS'),
    'every transaction in GHS',
  );
} catch (error) {
  fail(error);
} finally {
  await server.close();
}
finish();
