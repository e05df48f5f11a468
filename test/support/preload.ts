// The SDK loads ky and its Node fast path with the first request (so importing it stays
// cheap). In the built package both are bundled and that load takes microtasks only;
// here, against src/, it is a real module load, which tests on fake timers cannot wait
// for. Load them once up front.
await import('ky');
await import('../../src/core/node-pool/index');

export {};
