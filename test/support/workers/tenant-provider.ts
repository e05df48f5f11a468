/**
 * The provider of the tenant tests in a process of its own: the simulator with one
 * partner per tenant (its own subscription key, or two valid at once while it is
 * rotated, and its own API user), served over HTTP. Driven over IPC
 * (`TenantProvider` in test/support/tenant-provider.ts). `audit` checks every request it
 * received: the partner of its subscription key against the partner of its API user
 * (token requests) or of its token's API user (every other call).
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { serveParent } from '../worker';

let sim: Simulator | undefined;
let server: ListeningServer | undefined;
/** API user id -> partner name, subscription key -> partner name. */
const partnerOfUser = new Map<string, string>();
const partnerOfKey = new Map<string, string>();

export interface TenantPartner {
  name: string;
  subscriptionKeys: string[];
  apiUser: { id: string; key: string };
}

export interface Audit {
  requests: number;
  /** Requests whose key, API user or token belong to different partners (must be 0). */
  mixed: number;
  /** Requests whose key no partner has. */
  unknownKey: number;
  /** Per partner and product: distinct access tokens seen on its calls. */
  tokens: Record<string, number>;
  /** Per partner and product: token requests. */
  tokenRequests: Record<string, number>;
}

const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function claimsOf(token: string): { sub?: string; aud?: string } {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

serveParent({
  async start(input: { partners: number; settleMs: number; rotating?: boolean }) {
    const partners: TenantPartner[] = Array.from({ length: input.partners }, (_, i) => ({
      name: `p-${i}`,
      subscriptionKeys: input.rotating ? [`key-${i}-old`, `key-${i}-new`] : [`key-${i}`],
      apiUser: { id: uuid(i + 1), key: `api-key-${i}` },
    }));
    for (const partner of partners) {
      partnerOfUser.set(partner.apiUser.id, partner.name);
      for (const key of partner.subscriptionKeys) partnerOfKey.set(key, partner.name);
    }
    sim = createSimulator({
      settleMs: input.settleMs,
      partners: partners.map((p) => ({
        name: p.name,
        subscriptionKey: p.subscriptionKeys,
        apiUsers: [p.apiUser],
      })),
    });
    server = await sim.listen({ port: 0 });
    return { url: server.url, targetEnvironment: sim.credentials.targetEnvironment, partners };
  },

  async audit(): Promise<Audit> {
    const audit: Audit = { requests: 0, mixed: 0, unknownKey: 0, tokens: {}, tokenRequests: {} };
    const seen = new Map<string, Set<string>>();
    for (const request of sim?.requests ?? []) {
      audit.requests += 1;
      const keyPartner = partnerOfKey.get(request.headers['ocp-apim-subscription-key'] ?? '');
      if (keyPartner === undefined) {
        audit.unknownKey += 1;
        continue;
      }
      const authorization = request.headers.authorization ?? '';
      const product = request.path.split('/')[1] ?? '';
      if (authorization.startsWith('Basic ')) {
        const user = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':')[0];
        if (partnerOfUser.get(user ?? '') !== keyPartner) audit.mixed += 1;
        const at = `${keyPartner}/${product}`;
        audit.tokenRequests[at] = (audit.tokenRequests[at] ?? 0) + 1;
      } else if (authorization.startsWith('Bearer ')) {
        const token = authorization.slice(7);
        const claims = claimsOf(token);
        if (partnerOfUser.get(claims.sub ?? '') !== keyPartner) audit.mixed += 1;
        const at = `${keyPartner}/${claims.aud ?? product}`;
        const tokens = seen.get(at) ?? new Set<string>();
        tokens.add(token);
        seen.set(at, tokens);
      }
    }
    for (const [at, tokens] of seen) audit.tokens[at] = tokens.size;
    return audit;
  },

  /** Every transaction: its partner, reference id, externalId and status. */
  async transactions() {
    return (sim?.transactions ?? []).map((t) => ({
      partner: t.partner,
      referenceId: t.referenceId.toLowerCase(),
      externalId: (t.body as { externalId?: string } | undefined)?.externalId,
      status: t.status,
    }));
  },

  async settleAll() {
    let settled = 0;
    for (const t of sim?.transactions ?? []) {
      if (t.status !== 'PENDING') continue;
      sim?.settle(t.referenceId, 'SUCCESSFUL');
      settled += 1;
    }
    return settled;
  },

  async close() {
    await server?.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});
