// The SDK loads ky with its first request (so importing it stays cheap). In the built
// package ky is bundled and that load takes microtasks only; here, against src/, it is a
// real module load, which tests on fake timers cannot wait for. Load it once up front.
await import('ky');

export {};
