export { isNativeFetch } from './native';
export type { PoolOptions } from './pool';
export { createNodePool, type NodePool } from './send';
