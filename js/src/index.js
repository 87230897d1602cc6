// The tileproof kit: tp1, the move, the recorder and the exec-protocol
// harness, as one import. Each module can also be imported on its own.

export * from './tp1.js';
export * from './rules.js';
export * from './recorder.js';
export * from './harness.js';
