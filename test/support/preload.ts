// The SDK loads ky with the first request through fetch (so importing it stays cheap). In
// the built package it is bundled and that load takes microtasks only; here, against src/,
// it is a real module load, which tests on fake timers cannot wait for. Load it up front.
await import('ky');

export {};
