// bench.mjs, for BenchmarkKit (bench_test.go): in one node process,
// `--load WASM` prints the time loadVerifier took, from importing the kit
// to a verifier ready, and the CPU time it took (every thread's: V8
// compiles on several); `WASM BATCH LONG SECONDS` verifies the JSON Lines
// batch and the one replay LONG over and over for about SECONDS each and
// prints the seconds a pass took, by the clock and in CPU time, as JSON.

import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args[0] === '--load') {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const { loadVerifier } = await import('../src/verify.js');
  await loadVerifier({ wasm: args[1] });
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ loadMs: performance.now() - t, loadCPUMs: (used.user + used.system) / 1000 }) + '\n');
} else {
  const [wasm, batchFile, longFile, seconds] = args;
  const { loadVerifier } = await import('../src/verify.js');
  const v = await loadVerifier({ wasm });
  const batch = readFileSync(batchFile);
  const long = readFileSync(longFile);
  // rate runs f until it has taken about seconds (after one pass to warm
  // up) and returns the seconds a pass took, by the clock and in CPU
  // time (every thread's: V8's compiling and collecting included).
  const rate = (f) => {
    f();
    let n = 0;
    const t = performance.now();
    const cpu = process.cpuUsage();
    do {
      f();
      n++;
    } while (performance.now() - t < seconds * 1000);
    const used = process.cpuUsage(cpu);
    return [(performance.now() - t) / 1000 / n, (used.user + used.system) / 1e6 / n];
  };
  let lines = 0;
  const [batchSec, batchCPUSec] = rate(() => {
    lines = v.verifyLines(batch, { output: 'bytes' }).length;
  });
  const [longSec, longCPUSec] = rate(() => v.verify(long, { name: longFile, output: 'bytes' }));
  process.stdout.write(JSON.stringify({ batchSec, batchCPUSec, longSec, longCPUSec, batchBytes: lines }) + '\n');
}
