/**
 * Collection against the simulator served on loopback: a request to pay awaited to its
 * final status, its delivery notification, balances, account status, heartbeat, a request
 * to withdraw, a voucher (OTP, then redeem) and a standard-style disbursement.
 *
 *   npx tsx examples/collection.ts     exits 0 when every step behaved, 1 otherwise
 */
import { isConflictError } from 'momo-partner-sdk';
import { checklist } from './support/checklist';
import { loopbackSimulator } from './support/loopback';

// The simulator on 127.0.0.1 and a client configured for it: examples/support/loopback.ts
const { sim, server, momo } = await loopbackSimulator();

const { check, fail, finish } = checklist('Collection example');

const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
/** The simulator's payer who rejects every request (docs/simulator.md). */
const REJECTING_PAYER = { partyIdType: 'MSISDN', partyId: '46733123451' } as const;

try {
  console.log('== Request to pay 120 EUR, awaited to its final status');
  const paid = await momo.collection
    .requestToPay({
      amount: '120',
      currency: 'EUR',
      externalId: 'order-2001',
      payer,
      payerMessage: 'Order 2001',
      payeeNote: 'Online shop',
    })
    .wait({ onStatus: (r) => console.log(`   ...still ${r.status}`) });
  console.log(`   final: ${paid.status}, financialTransactionId ${paid.financialTransactionId}`);
  check(paid.status === 'SUCCESSFUL', 'request to pay SUCCESSFUL');

  console.log('\n== Delivery notification to the payer, in French');
  const accepted = await momo.collection.requestToPay({ amount: '30', currency: 'EUR', payer });
  await accepted.wait();
  const notified = await momo.collection.sendDeliveryNotification(
    accepted.referenceId,
    'Votre commande est en route',
    { language: 'fr' },
  );
  console.log(`   ${notified.outcome} for ${notified.referenceId}`);
  check(notified.outcome === 'enqueued', 'notification enqueued');

  const rejected = await momo.collection.requestToPay({
    amount: '30',
    currency: 'EUR',
    payer: REJECTING_PAYER,
  });
  const declined = await rejected.wait();
  console.log(`   a request the payer rejected: ${declined.status}`);
  const notCompleted = await momo.collection
    .sendDeliveryNotification(rejected.referenceId, 'Your order is on its way')
    .catch((error: unknown) => error);
  console.log(
    `   notifying it: ${isConflictError(notCompleted) ? `409 ${notCompleted.code}` : notCompleted}`,
  );
  check(isConflictError(notCompleted), 'no notification for a transaction that did not succeed');

  console.log('\n== Balance, account status, heartbeat');
  const balance = await momo.collection.getBalance();
  const inEur = await momo.collection.getBalance('EUR');
  console.log(`   balance: ${balance.availableBalance} ${balance.currency}`);
  console.log(`   balance in EUR: ${inEur.availableBalance} ${inEur.currency}`);
  check(inEur.currency === 'EUR', 'balance read, in all and in one currency');

  const status = await momo.collection.getAccountStatus('msisdn', '46733123999');
  console.log(`   account 46733123999 is ${status.accountStatus}`);
  check(status.accountStatus === 'available', 'account status read');

  const heartbeat = await momo.collection.heartbeat();
  console.log(`   service status: ${heartbeat.serviceStatus}`);
  check(typeof heartbeat.serviceStatus === 'string', 'heartbeat answered');

  console.log('\n== Request to withdraw 50 EUR (PUT), awaited');
  const withdrawn = await momo.collection
    .requestToWithdraw({ amount: '50', currency: 'EUR', externalId: 'cash-out-7', payer })
    .wait();
  console.log(`   final: ${withdrawn.status}`);
  check(withdrawn.status === 'SUCCESSFUL', 'request to withdraw SUCCESSFUL');

  console.log('\n== Voucher: OTP, then redeem');
  const voucherToken = 'VOUCHER-4711';
  const otp = await momo.collection.getVoucherOtp(voucherToken);
  console.log(`   OTP request: type ${otp.type}, sent to ${otp.msisdn}`);
  check(otp.type !== undefined, 'voucher OTP requested');
  const redeemed = await momo.collection.redeemVoucher(voucherToken, {
    externalId: 'voucher-4711',
    receiver: { msisdn: '46733123999', firstName: 'Ama' },
    otp: '123456',
  });
  console.log(`   redeem accepted, referenceId ${redeemed.referenceId}`);
  // The specification has no lookup for a redemption: its outcome comes by callback
  // (see examples/callbacks.ts). Here we peek at the simulator instead.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const voucher = sim.transaction(redeemed.referenceId);
  console.log(`   the simulator settled it: ${voucher?.status}`);
  check(voucher?.status === 'SUCCESSFUL', 'voucher redeemed');

  console.log('\n== Standard-style disbursement (X-CorrelationID)');
  const standard = await momo.collection.standardDisbursement({
    debitParty: [{ key: 'msisdn', value: '46733123999' }],
    amount: '75',
    currency: 'EUR',
    descriptionText: 'Subscription',
  });
  console.log(
    `   ${standard.status}, correlationId ${standard.correlationId}, notified by ${standard.notificationMethod}`,
  );
  check(standard.status === 'pending', 'standard-style disbursement accepted, pending');
} catch (error) {
  fail(error);
} finally {
  await server.close();
}

finish();
