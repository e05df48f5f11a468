// momo-partner-sdk/reconcile: the partner's books against the provider (docs/reconcile.md).
export { reconcile } from './reconcile';
export type {
  ReconcileFound,
  ReconcileFromStoreOptions,
  ReconcileItem,
  ReconcileOptions,
  ReconcileProgress,
  ReconcileRecord,
  ReconcileResult,
  ReconcileStoreRecord,
  ReconcileStores,
  ReconcileSummary,
  ReconcileVerdict,
} from './types';
