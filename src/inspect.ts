/**
 * The key of an object's `util.inspect` rendering (a registered symbol: Node reads it
 * without the SDK importing Node), named once for every class that renders itself.
 */
export const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
