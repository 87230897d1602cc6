// The tileproof kit: tp1, the move, the recorder, the exec-protocol
// harness and the client of tileproof serve's API, as one import. Each
// module can also be imported on its own.

export * from './tp1.js';
export * from './rules.js';
export * from './recorder.js';
export * from './harness.js';
export * from './server-game.js';
