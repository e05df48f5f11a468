/**
 * Remittance against the simulator served on loopback: a transfer and a cash transfer
 * awaited to their final status, and the receiver's user info read with their consent.
 *
 *   npx tsx examples/remittance.ts     exits 0 when every step behaved, 1 otherwise
 */
import { checklist } from './support/checklist';
import { loopbackSimulator } from './support/loopback';

// The simulator on 127.0.0.1 and a client configured for it: examples/support/loopback.ts
const { server, momo } = await loopbackSimulator();

const { check, fail, finish } = checklist('Remittance example');

const receiver = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;

try {
  console.log('== Transfer 80 EUR abroad');
  const transfer = await momo.remittance.transfer({
    amount: '80',
    currency: 'EUR',
    externalId: 'remit-501',
    payee: receiver,
    payerMessage: 'For school fees',
    payeeNote: 'From Lisbon',
  });
  console.log(`   accepted (202), referenceId ${transfer.referenceId}`);
  const sent = await transfer.wait();
  console.log(`   final: ${sent.status}, financialTransactionId ${sent.financialTransactionId}`);
  check(sent.status === 'SUCCESSFUL', 'transfer SUCCESSFUL');

  console.log('\n== Cash transfer with the payer identified (spec 2.3 body)');
  const cash = await momo.remittance.cashTransfer({
    amount: '100',
    currency: 'EUR',
    payee: receiver,
    externalId: 'cash-502',
    orginatingCountry: 'PT', // spelled as the specification spells it
    originalAmount: '110',
    originalCurrency: 'USD',
    payerIdentificationType: 'PASS',
    payerIdentificationNumber: 'P1234567',
    payerFirstName: 'Joana',
    payerSurName: 'Silva',
    payerMsisdn: '351912345678',
  });
  const cashed = await cash.wait();
  console.log(
    `   final: ${cashed.status}; ${cashed.originalAmount} ${cashed.originalCurrency} from ${cashed.orginatingCountry}`,
  );
  const looked = await momo.remittance.getCashTransfer(cash.referenceId);
  check(
    cashed.status === 'SUCCESSFUL' && looked.status === 'SUCCESSFUL',
    'cash transfer SUCCESSFUL',
  );

  console.log('\n== The receiver consents; their user info is read with that consent');
  const request = await momo.consent.authorize({
    msisdn: receiver.partyId,
    scope: 'profile',
    accessType: 'online',
  });
  const consent = await request.wait();
  const user = await momo.remittance.getUserInfo({ consent });
  console.log(`   ${user.name}, born ${user.birthdate}, ${user.country_of_birth}`);
  check(user.phone_number === receiver.partyId, 'user info of the consenting receiver');
} catch (error) {
  fail(error);
} finally {
  await server.close();
}

finish();
