/**
 * Disbursement against the simulator served on loopback: token, balance, an account
 * holder's name, a deposit awaited to SUCCESSFUL, a transfer the payee's side declines,
 * a refund, and resuming a wait from a stored reference id.
 * (Transfers and merchant payments with consent: examples/consent.ts.)
 *
 *   npx tsx examples/disbursement.ts     exits 0 when every step behaved, 1 otherwise
 */
import { checklist } from './support/checklist';
import { loopbackSimulator } from './support/loopback';

// The simulator on 127.0.0.1 and a client configured for it: examples/support/loopback.ts
const { server, momo } = await loopbackSimulator();

const { check, fail, finish } = checklist('Disbursement example');

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
/** The simulator's payee who cannot be found (docs/simulator.md). */
const UNKNOWN_PAYEE = { partyIdType: 'MSISDN', partyId: '46733123456' } as const;

try {
  console.log('== Token, balance, account holder');
  const token = await momo.disbursement.getAccessToken();
  console.log(`   token valid until ${token.expiresAt.toISOString()}`);
  const balance = await momo.disbursement.getBalance();
  console.log(`   balance: ${balance.availableBalance} ${balance.currency}`);
  const holder = await momo.disbursement.getBasicUserInfo(payee.partyId);
  console.log(
    `   ${payee.partyId} is ${holder.given_name} ${holder.family_name} (${holder.status})`,
  );
  check(balance.currency === 'EUR' && holder.given_name !== undefined, 'token, balance, name read');

  console.log('\n== Deposit 250 EUR, awaited to its final status');
  const deposit = await momo.disbursement.deposit({
    amount: '250',
    currency: 'EUR',
    externalId: 'cash-in-1042',
    payee,
    payerMessage: 'Cash-in',
    payeeNote: 'Thank you',
  });
  console.log(`   accepted (202), referenceId ${deposit.referenceId}`);
  const deposited = await deposit.wait();
  console.log(
    `   final: ${deposited.status}, financialTransactionId ${deposited.financialTransactionId}`,
  );
  check(deposited.status === 'SUCCESSFUL', 'deposit SUCCESSFUL');

  console.log('\n== Transfer to a payee the service cannot find');
  const transfer = await momo.disbursement
    .transfer({ amount: '75', currency: 'EUR', externalId: 'payout-77', payee: UNKNOWN_PAYEE })
    .wait();
  const reason = transfer.status === 'FAILED' ? transfer.reason : undefined;
  console.log(`   final: ${transfer.status}, ${reason?.code}: ${reason?.message}`);
  check(reason?.code === 'PAYEE_NOT_FOUND', 'FAILED is a result, not an exception');

  console.log('\n== Refund 100 EUR of the deposit');
  const refund = await momo.disbursement.refund({
    amount: '100',
    currency: 'EUR',
    externalId: 'refund-1042',
    referenceIdToRefund: deposit.referenceId,
  });
  const firstLook = await refund.status();
  console.log(`   one lookup right after acceptance: ${firstLook.status}`);
  // A process that stored the id (and restarted) resumes the wait by lookup:
  const refunded = await momo.disbursement.waitForRefund(refund.referenceId);
  console.log(`   waitForRefund(${refund.referenceId}): ${refunded.status}`);
  check(refunded.status === 'SUCCESSFUL', 'refund SUCCESSFUL');

  const again = await momo.disbursement.getDeposit(deposit.referenceId);
  console.log(`   getDeposit still says ${again.status}`);
  const after = await momo.disbursement.getBalance();
  console.log(`   balance now: ${after.availableBalance} ${after.currency}`);
  check(after.availableBalance !== balance.availableBalance, 'balance moved');
} catch (error) {
  fail(error);
} finally {
  await server.close();
}

finish();
