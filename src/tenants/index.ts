/**
 * `momo-partner-sdk/tenants`: many merchants, one deployment (see
 * docs/tenants.md). It imports the client from the main entry by name: one copy of
 * MomoClient, one error tree.
 */
export {
  type GlobalRateLimits,
  memoryRateBudget,
  rateScopeId,
  type TenantRateOptions,
  tenantRateBudget,
} from './budget';
export { TenantCallbacks, tenantOfCallback } from './callbacks';
export { TenantJournal } from './journal';
export { DEFAULT_MAX_LIVE } from './options';
export { isTenantId, UnknownTenantError } from './tenant-id';
export { Tenants } from './tenants';
export { MemoryTokenStore } from './token-store';
export type {
  TenantCallback,
  TenantCallbackHandlerOptions,
  TenantClientOptions,
  TenantCredentials,
  TenantRates,
  TenantsOptions,
  TenantsShared,
} from './types';
