export { isNativeFetch } from './native';
export type { PoolOptions, PoolStats } from './pool';
export { createNodePool, type NodePool } from './send';
