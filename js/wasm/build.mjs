#!/usr/bin/env node
// build.mjs [OUT]: builds the verifier's module (npm run build in js/):
// this package for GOOS=wasip1 GOARCH=wasm as a library
// (-buildmode=c-shared: Go initializes in _initialize, then serves the
// //go:wasmexport functions), without symbols or build ID and with paths
// trimmed, so that the same source and Go give the same bytes; then
// initialized ahead of time (snapshot.mjs). OUT: dist/verifier.wasm by
// default.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshot } from './snapshot.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, '..', 'dist', 'verifier.wasm');
const tmp = mkdtempSync(join(tmpdir(), 'tileproof-wasm-'));
try {
  const raw = join(tmp, 'raw.wasm');
  execFileSync('go', ['build', '-buildmode=c-shared', '-trimpath', '-ldflags=-s -w -buildid=', '-o', raw, '.'], {
    cwd: here,
    env: { ...process.env, GOOS: 'wasip1', GOARCH: 'wasm' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const wasm = await snapshot(readFileSync(raw));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, wasm);
  process.stderr.write(`wrote ${out} (${wasm.length} bytes)\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
