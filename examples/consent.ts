/**
 * The consent (CIBA) flow against the simulator served on loopback: ask the account
 * holder, wait for their answer, then spend the ConsentToken on the consent-based
 * calls. A refused request ends in ConsentDeniedError.
 *
 *   npx tsx examples/consent.ts     exits 0 when every step behaved, 1 otherwise
 */
import { isConsentDeniedError } from 'momo-partner-sdk';
import { checklist } from './support/checklist';
import { loopbackSimulator } from './support/loopback';

// The simulator on 127.0.0.1 and a client configured for it: examples/support/loopback.ts
const { server, momo } = await loopbackSimulator();

const { check, fail, finish } = checklist('Consent example');

/** The simulator's account holder who refuses every consent request (docs/simulator.md). */
const REFUSING_HOLDER = '46733123451';

try {
  console.log('== Ask the account holder 46733123999 for consent (bc-authorize)');
  // Scope values are the service's to define; the simulator records them without checking.
  const request = await momo.consent.authorize({
    msisdn: '46733123999',
    scope: 'profile',
    accessType: 'offline',
  });
  console.log(
    `   auth_req_id ${request.authReqId}: poll every ${request.interval} s, expires in ${request.expiresIn} s`,
  );
  const consent = await request.wait({
    onPending: ({ polls }) => console.log(`   ...poll ${polls}: not answered yet`),
  });
  console.log(`   consent granted: ${JSON.stringify(consent)}`);
  check(consent.expiresAt.getTime() > Date.now(), 'ConsentToken received (tokens print redacted)');

  console.log('\n== Spend the consent: transfer, merchant payment, user info');
  const transfer = await momo.disbursement
    .transferWithConsent({ amount: '15' }, { consent })
    .wait();
  console.log(`   transferWithConsent: ${transfer.status}`);
  check(transfer.status === 'SUCCESSFUL', 'transfer with consent SUCCESSFUL');

  const payment = await momo.disbursement
    .merchantPaymentWithConsent({ amount: '20' }, { consent })
    .wait();
  console.log(`   merchantPaymentWithConsent: ${payment.status}`);
  check(payment.status === 'SUCCESSFUL', 'merchant payment with consent SUCCESSFUL');

  const user = await momo.remittance.getUserInfo({ consent });
  console.log(`   getUserInfo: ${user.given_name} ${user.family_name}, ${user.phone_number}`);
  check(typeof user.sub === 'string' || typeof user.name === 'string', 'user info read');

  console.log(`\n== An account holder who refuses (${REFUSING_HOLDER})`);
  const refused = await momo.consent.authorize({
    msisdn: REFUSING_HOLDER,
    scope: 'profile',
    accessType: 'online',
  });
  const outcome = await refused.wait().catch((error: unknown) => error);
  console.log(`   wait() threw: ${isConsentDeniedError(outcome) ? outcome.message : outcome}`);
  check(isConsentDeniedError(outcome), 'ConsentDeniedError');
} catch (error) {
  fail(error);
} finally {
  await server.close();
}

finish();
