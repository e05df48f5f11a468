export { createNodeFetch, type NodeFetch, type NodeFetchOptions } from './fetch';
export { isNativeFetch } from './native';
export type { NodeFetchInit } from './outgoing';
export type { PoolStats } from './pool';
