import type { ProductName } from '../../core/options';
import { positiveInteger } from '../args';
import { defineCommand } from '../command';
import {
  callbackCheck,
  currencyCheck,
  type DoctorConfig,
  productChecks,
  productCredentials,
} from '../doctor/api-checks';
import { reaches, resolves, targetOf, tls } from '../doctor/network';
import { type Check, printChecklist } from '../doctor/report';
import { PRODUCTS, productArg } from '../env';
import type { EnvironmentProbe } from '../environment';
import { ExitCode, printJson } from '../output';

const USAGE = `Usage: momo-partner-sdk doctor [<product>...] [options]

Checks a configuration end to end and says what to fix, one line per check:
  host          the host of MOMO_BASE_URL resolves
  reach         it accepts a connection
  tls           https: its certificate is valid (http: loopback only)
  <product> credentials   a token is issued; if not, which credential was refused
                          (subscription key, or API user id/API key) and its variable
  <product> environment   MOMO_TARGET_ENVIRONMENT is accepted (a balance read)
  currency      the sandbox takes EUR only
  callback      MOMO_CALLBACK_URL: https outside the sandbox; in the sandbox, its host
                against the API user's providerCallbackHost
Exit code 6 when a check failed (warnings do not count).

  <product>...        the products to check (default: every product whose
                      credentials are set, shared or MOMO_<PRODUCT>_*)
  --timeout-ms <n>    per connection and request (default 10000)
  --base-url <url>    MOMO_BASE_URL (default https://sandbox.momodeveloper.mtn.com)
  --target-environment <name>  MOMO_TARGET_ENVIRONMENT (default sandbox)
  --json              {"ok":...,"checks":[{"name","status","message","fix"?}]}
  --tenant <id>       check this tenant's credential set instead (docs/tenants.md),
  --tenants-file <path>  read from this file (MOMO_TENANTS_FILE)
  -h, --help          show this help
  -v, --version       print the version

Variables: MOMO_SUBSCRIPTION_KEY, MOMO_API_USER, MOMO_API_KEY (or per product,
MOMO_COLLECTION_API_KEY...), MOMO_CALLBACK_URL.
`;

export const doctorCommand = defineCommand({
  name: 'doctor',
  summary: 'check host, TLS, credentials, target environment and callback URL',
  usage: USAGE,
  connection: true,
  flags: { 'timeout-ms': { type: 'string' } },
  positionals: { min: 0, max: 3, names: '' },
  async run(command) {
    const { args, io } = command;
    const chosen = args.positionals.map(productArg);
    const config: DoctorConfig = {
      ...command.connection(),
      timeoutMs: positiveInteger(args.text('timeout-ms'), '--timeout-ms') ?? 10_000,
      env: io.env,
    };
    const checks = await diagnose(config, chosen);
    const ok = checks.every((check) => check.status !== 'fail');
    if (command.json) {
      printJson(io, {
        ok,
        baseUrl: config.baseUrl,
        targetEnvironment: config.targetEnvironment,
        checks,
      });
    } else {
      printChecklist(
        io,
        `momo-partner-sdk doctor: ${config.baseUrl}, target environment ${config.targetEnvironment}`,
        checks,
      );
    }
    return ok ? ExitCode.ok : ExitCode.checkFailed;
  },
});

/** Every check in order; a check that cannot run because an earlier one failed is skipped. */
async function diagnose(config: DoctorConfig, chosen: ProductName[]): Promise<Check[]> {
  const checks: Check[] = [];
  let url: URL;
  try {
    url = new URL(config.baseUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('not http(s)');
  } catch {
    return [
      {
        name: 'host',
        status: 'fail',
        message: `MOMO_BASE_URL is not an http(s) URL: ${config.baseUrl}`,
        fix: 'MOMO_BASE_URL',
      },
    ];
  }
  const target = targetOf(url);
  checks.push({ name: 'host', ...(await resolves(target)) });
  const reach =
    checks[0]?.status === 'fail'
      ? { status: 'skip' as const, message: 'the host does not resolve' }
      : await reaches(target, config.timeoutMs);
  checks.push({ name: 'reach', ...reach });
  const reachable = reach.status === 'ok';
  checks.push({
    name: 'tls',
    ...(reachable
      ? await tls(target, config.timeoutMs)
      : { status: 'skip' as const, message: 'the host cannot be reached' }),
  });
  const products = productsToCheck(config, chosen, checks);
  let probe: EnvironmentProbe | undefined;
  for (const product of products) {
    if (!reachable) {
      checks.push({
        name: `${product} credentials`,
        status: 'skip',
        message: 'the host cannot be reached',
      });
      continue;
    }
    const result = await productChecks(config, product);
    checks.push(...result.checks);
    probe ??= result.probe;
  }
  checks.push({ name: 'currency', ...currencyCheck(config, probe) });
  const callback = reachable
    ? await callbackCheck(config, products[0])
    : { status: 'skip' as const, message: 'the host cannot be reached' };
  checks.push({ name: 'callback', ...callback });
  return checks;
}

/** The products asked for, else those with credentials; a line for what is missing. */
function productsToCheck(
  config: DoctorConfig,
  chosen: ProductName[],
  checks: Check[],
): ProductName[] {
  const candidates = chosen.length > 0 ? chosen : PRODUCTS;
  const ready: ProductName[] = [];
  for (const product of candidates) {
    const { missing } = productCredentials(config.env, product);
    if (missing.length === 0) ready.push(product);
    else if (chosen.length > 0 || missing.length < 3) {
      checks.push({
        name: `${product} credentials`,
        status: 'fail',
        message: `not set: ${missing.join(', ')}`,
        fix: missing[0] as string,
      });
    }
  }
  if (ready.length === 0 && !checks.some((c) => c.name.endsWith(' credentials'))) {
    checks.push({
      name: 'credentials',
      status: 'fail',
      message:
        'none set: set MOMO_SUBSCRIPTION_KEY, MOMO_API_USER and MOMO_API_KEY (or per product)',
      fix: 'MOMO_SUBSCRIPTION_KEY',
    });
  }
  return ready;
}
