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

// GoError is go build's failure, said in a line (not node's stack trace)
// with the exit status build.mjs ends with: 2 for no go at all (a web
// developer's machine, often), 1 for a build that failed, whose reasons
// Go has written already.
class GoError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, '..', 'dist', 'verifier.wasm');
const tmp = mkdtempSync(join(tmpdir(), 'tileproof-wasm-'));
try {
  const raw = join(tmp, 'raw.wasm');
  try {
    execFileSync('go', ['build', '-buildmode=c-shared', '-trimpath', '-ldflags=-s -w -buildid=', '-o', raw, '.'], {
      cwd: here,
      env: { ...process.env, GOOS: 'wasip1', GOARCH: 'wasm' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (e) {
    throw new GoError(e.code === 'ENOENT' ? 2 : 1, e.code === 'ENOENT'
      ? "no go on PATH: the verifier is built from the repository's Go source, with the Go that go.mod names or later (https://go.dev/dl/); then npm run build again"
      : `go build failed (exit status ${e.status ?? e.signal}); its messages are above`);
  }
  const wasm = await snapshot(readFileSync(raw));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, wasm);
  process.stderr.write(`wrote ${out} (${wasm.length} bytes)\n`);
} catch (e) {
  if (!(e instanceof GoError)) throw e;
  process.stderr.write(`build.mjs: ${e.message}\n`);
  process.exitCode = e.status;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
