import { v4 as uuidv4 } from 'uuid';

interface ApiUserRecord {
  readonly providerCallbackHost: string;
  /** The partner whose subscription key created it: its key is valid only with theirs. */
  readonly partner: string;
  /** The latest key issued: a new key replaces the previous one. */
  key: string | undefined;
}

/**
 * API users created through the sandbox provisioning endpoints. The token endpoints
 * accept their Basic credentials besides the simulator's fixed API user.
 */
export class ApiUserStore {
  private readonly users = new Map<string, ApiUserRecord>();

  /** False when the id is taken. */
  create(id: string, providerCallbackHost: string, partner: string): boolean {
    const key = id.toLowerCase();
    if (this.users.has(key)) return false;
    this.users.set(key, { providerCallbackHost, partner, key: undefined });
    return true;
  }

  get(id: string): { providerCallbackHost: string } | undefined {
    const record = this.users.get(id.toLowerCase());
    return record && { providerCallbackHost: record.providerCallbackHost };
  }

  /** Every provisioned user: id, callback host, and whether a key was issued (never the key). */
  list(): { id: string; providerCallbackHost: string; hasKey: boolean }[] {
    return [...this.users].map(([id, record]) => ({
      id,
      providerCallbackHost: record.providerCallbackHost,
      hasKey: record.key !== undefined,
    }));
  }

  /** A new key for the user (undefined when there is no such user). */
  issueKey(id: string): string | undefined {
    const record = this.users.get(id.toLowerCase());
    if (!record) return undefined;
    // 32 hex characters, the shape of the provider's sandbox keys.
    record.key = uuidv4().replaceAll('-', '');
    return record.key;
  }

  /** Whether these are the id and current key of a user provisioned by `partner`. */
  verify(id: string, key: string, partner: string): boolean {
    const record = this.users.get(id.toLowerCase());
    return record?.key !== undefined && record.key === key && record.partner === partner;
  }
}
