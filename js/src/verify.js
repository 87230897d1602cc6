// The verifier of `tileproof verify`, in process: the Go verifier built to
// WebAssembly (js/wasm, `npm run build`), for node 18+ and browsers (in a
// worker: a long replay takes a while). Each verdict is the object a line
// of `tileproof verify --json` holds, and its text (output: 'text' or
// 'bytes') is that line, byte for byte. docs/web.md.
//
//   import { loadVerifier, verify } from 'tileproof-kit/verify';
//   await loadVerifier();                     // once: compiles and starts the module
//   const verdict = verify(replayText);       // one replay, YAML or JSON
//   const verdicts = verifyLines(jsonLines);  // a JSON Lines batch, a verdict a line
//
// The bounds are the command's: a replay (a file or a line) of more than
// 64 MiB is unreadable, as are a line that is not a JSON object, and a
// file that is not a replay.

const MAX_REPLAY = 64 << 20;

// WASI's error for a file descriptor there is not.
const EBADF = 8;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// ExitError is thrown when the module exits: a Go panic (its message went
// to console.error), after which the verifier cannot be used.
export class ExitError extends Error {
  constructor(code) {
    super(`the verifier's module exited with status ${code}`);
    this.code = code;
  }
}

// SNAPSHOT_CLOCK_END is where the monotonic clock starts, in
// nanoseconds: past any time the module saw while it was initialized
// ahead of time (wasm/snapshot.mjs), so that its clock never goes back.
export const SNAPSHOT_CLOCK_END = 1e9;

// wasiImports is the little of WASI (preview 1) the Go runtime asks of its
// host: no files, no arguments, no environment; clocks, randomness, and
// stdout and stderr written to the console. It works the same in node and
// in a browser, so neither node:wasi nor a polyfill is needed. memory
// gives the module's memory; webcrypto the randomness (node 18 has no
// global crypto). With fixed ({clock: 0}), for the build's
// snapshot, the clocks give fixed.clock, which goes up a microsecond a
// read, and the randomness is zeros: the same every build.
export function wasiImports(memory, fixed = null, webcrypto = globalThis.crypto) {
  const view = () => new DataView(memory().buffer);
  const bytes = (p, n) => new Uint8Array(memory().buffer, p, n);
  const pending = { 1: '', 2: '' };
  const start = typeof performance !== 'undefined' ? performance.now() : 0;
  return {
    args_sizes_get(argc, size) { view().setUint32(argc, 0, true); view().setUint32(size, 0, true); return 0; },
    args_get() { return 0; },
    environ_sizes_get(count, size) { view().setUint32(count, 0, true); view().setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    clock_time_get(id, precision, at) {
      let ns;
      if (fixed) ns = BigInt(fixed.clock += 1000);
      else if (id === 0) ns = BigInt(Date.now()) * 1000000n;
      else ns = BigInt(SNAPSHOT_CLOCK_END + Math.round((performance.now() - start) * 1e6));
      view().setBigUint64(at, ns, true);
      return 0;
    },
    random_get(p, n) {
      if (fixed) return bytes(p, n).fill(0), 0;
      for (let i = 0; i < n; i += 65536) webcrypto.getRandomValues(bytes(p + i, Math.min(65536, n - i)));
      return 0;
    },
    fd_write(fd, iovs, count, written) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view();
      let n = 0;
      for (let i = 0; i < count; i++) {
        const p = v.getUint32(iovs + 8 * i, true);
        const len = v.getUint32(iovs + 8 * i + 4, true);
        pending[fd] += decoder.decode(bytes(p, len), { stream: true });
        n += len;
      }
      const lines = pending[fd].split('\n');
      pending[fd] = lines.pop();
      for (const line of lines) console.error(line); // a panic's message, for the developer
      view().setUint32(written, n, true);
      return 0;
    },
    proc_exit(code) { throw new ExitError(code); },
    sched_yield() { return 0; },
    // poll_oneoff is how the Go runtime waits: for nothing here (it asks
    // with a timeout of 0 after a collection) or for a timer, which this
    // single-threaded module never needs to wait for. Every subscription
    // is answered as come due at once.
    poll_oneoff(subs, events, n, count) {
      const v = view();
      for (let i = 0; i < n; i++) {
        const s = subs + 48 * i;
        const e = events + 32 * i;
        for (let j = 0; j < 32; j += 4) v.setUint32(e + j, 0, true);
        v.setBigUint64(e, v.getBigUint64(s, true), true); // userdata
        v.setUint8(e + 10, v.getUint8(s + 8)); // the event's type is the subscription's
      }
      v.setUint32(count, n, true);
      return 0;
    },
    fd_close() { return EBADF; },
    fd_read() { return EBADF; },
    fd_fdstat_get() { return EBADF; },
    fd_fdstat_set_flags() { return EBADF; },
    fd_prestat_get() { return EBADF; },
    fd_prestat_dir_name() { return EBADF; },
  };
}

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

// moduleOf compiles what wasm is: a WebAssembly.Module, bytes, a URL or
// path, a Response or its promise; by default the built module beside
// this file (../dist/verifier.wasm).
async function moduleOf(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  wasm = await wasm;
  const built = wasm == null; // the kit's own, which npm run build makes
  if (built) wasm = new URL('../dist/verifier.wasm', import.meta.url);
  if (typeof wasm === 'string' || wasm instanceof URL) {
    if (isNode && (typeof wasm === 'string' || wasm.protocol === 'file:')) {
      const { readFile } = await import('node:fs/promises');
      let bytes;
      try {
        bytes = await readFile(wasm);
      } catch (e) {
        if (built && e.code === 'ENOENT') throw new Error(`the verifier's module is not built (npm run build in the kit makes dist/verifier.wasm): ${e.message}`, { cause: e });
        throw e;
      }
      return WebAssembly.compile(bytes);
    }
    wasm = fetch(wasm);
  }
  if (typeof Response !== 'undefined' && (wasm instanceof Response || typeof (await wasm).arrayBuffer === 'function')) {
    const res = await wasm;
    if (!res.ok) throw new Error(`cannot fetch the verifier's module ${res.url}: ${res.status} ${res.statusText}`);
    if (WebAssembly.compileStreaming && (res.headers.get('Content-Type') || '').startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(res);
    }
    return WebAssembly.compile(await res.arrayBuffer());
  }
  return WebAssembly.compile(wasm);
}

// toBytes gives a replay (or what names) as UTF-8 bytes: a string
// encoded, bytes as they are (a Uint8Array, an ArrayBuffer or any view of
// one). Anything else is a TypeError that says what was given and, for
// the usual mistakes, what to give instead.
function toBytes(input, what = 'a replay') {
  if (typeof input === 'string') return encoder.encode(input);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  let given = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input === 'object' ? 'an object' : `a ${typeof input}`;
  if (input !== null && typeof input === 'object' && typeof input.arrayBuffer === 'function') {
    // A File from an <input type="file">, a Blob, a fetch Response: read
    // asynchronously, which a verifier's call is not.
    given += ' to be read (a Blob, a File or a Response): give await it.arrayBuffer() or await it.text()';
  } else if (input !== null && typeof input === 'object' && what === 'a replay') {
    given += ": give its JSON text, JSON.stringify(replay) (a Recorder's toJSONLine(), not its replay())";
  } else if (input !== null && typeof input === 'object' && what === 'a JSON Lines batch') {
    given += ": give the lines' text, JSON.stringify(replay) + '\\n' for each (a Recorder's toJSONLine())";
  }
  const text = what === 'a replay' ? 'text (YAML or JSON)' : what === 'a profile' ? 'text (YAML)' : 'text';
  throw new TypeError(`${what} is ${text} or its UTF-8 bytes (a Uint8Array, an ArrayBuffer or a view of one), not ${given}`);
}

// Verifier is a started module. Its calls are synchronous and one at a
// time: a stream open while verify or verifyLines is called is ended
// first.
export class Verifier {
  #x; // the module's exports
  #stream = null; // the open stream, if any

  constructor(instance) {
    this.#x = instance.exports;
  }

  // call writes name and data to the module's input buffer and calls f
  // with the name's length, then returns the verdict lines it gave. A
  // name is text, or its bytes (a file name that is not UTF-8, which the
  // verdict then writes as the command writes it).
  #call(f, name, data, strict, output) {
    const x = this.#x;
    const n = name instanceof Uint8Array ? name : encoder.encode(String(name));
    x.setStrict(strict ? 1 : 0);
    const p = x.input(n.length + data.length);
    const mem = new Uint8Array(x.memory.buffer, p, n.length + data.length);
    mem.set(n);
    mem.set(data, n.length);
    f(n.length);
    return this.#out(output);
  }

  // out reads the verdict lines of the last call as output asks: 'object'
  // (an array of verdicts), 'text' (the lines) or 'bytes' (their UTF-8).
  #out(output) {
    const x = this.#x;
    const len = x.outLen();
    const b = len === 0 ? new Uint8Array(0) : new Uint8Array(x.memory.buffer, x.out(), len);
    switch (output) {
      case 'bytes': return b.slice();
      case 'text': return decoder.decode(b);
      case 'object': case undefined: {
        const text = decoder.decode(b);
        return text === '' ? [] : text.slice(0, -1).split('\n').map((l) => JSON.parse(l));
      }
    }
    throw new TypeError(`output: ${output}: give 'object', 'text' or 'bytes'`);
  }

  // endStream ends the open stream, if any, before another call, by,
  // uses the module: that stream's push and end then throw, saying so.
  #endStream(by) {
    if (this.#stream) this.#stream.interrupt(by);
  }

  // warm builds what the verifier builds on first use (the profiles read,
  // their rules compiled, the move tables) by verifying a short game of
  // every built-in profile: some hundreds of milliseconds once, so that
  // the first replay after it costs no more than the next. A server calls
  // it after loadVerifier; a page that verifies one replay need not.
  warm() {
    this.#endStream('warm()');
    this.#x.warm();
  }

  // addProfile makes a profile known, as `verify --profile FILE` does:
  // yaml is the file's content (a string or bytes), file its name for
  // messages; a replay whose profile names the file's name: is verified
  // under it. It throws an Error with the command's message for a
  // profile the command would refuse.
  addProfile(yaml, { file = 'profile.yaml' } = {}) {
    this.#endStream('addProfile()');
    const x = this.#x;
    const n = encoder.encode(String(file));
    const data = toBytes(yaml, 'a profile');
    const p = x.input(n.length + data.length);
    const mem = new Uint8Array(x.memory.buffer, p, n.length + data.length);
    mem.set(n);
    mem.set(data, n.length);
    if (x.addProfile(n.length) !== 0) throw new Error(this.#out('text'));
  }

  // verify verifies one replay, a file's content in any form `tileproof
  // verify FILE` reads (YAML or JSON). options: name (the verdict's
  // name, 'replay' unless given: a string, or bytes, a Uint8Array, for a
  // file name that is not UTF-8), strict (as --strict), output ('object',
  // the default: the verdict; 'text': its --json line; 'bytes').
  verify(input, { name = 'replay', strict = false, output = 'object' } = {}) {
    this.#endStream('verify()');
    let data = toBytes(input);
    if (data.length > MAX_REPLAY + 1) data = data.subarray(0, MAX_REPLAY + 1); // enough to be refused as too large
    const r = this.#call(this.#x.verify, name, data, strict, output);
    return output === 'object' ? r[0] : r;
  }

  // verifyLines verifies a JSON Lines batch, as `tileproof verify` reads a
  // .jsonl file or stdin: a verdict a replay line, named NAME:LINE. The
  // batch is copied whole into the module's memory: a batch of more than
  // some hundreds of MB goes through stream() instead.
  // options as verify's, name 'stdin' unless given; 'object' gives an
  // array of verdicts.
  verifyLines(input, { name = 'stdin', strict = false, output = 'object' } = {}) {
    this.#endStream('verifyLines()');
    const data = toBytes(input, 'a JSON Lines batch');
    return this.#call(this.#x.verifyLines, name, data, strict, output);
  }

  // stream opens a JSON Lines batch given a chunk at a time, as `verify -`
  // reads stdin: push(chunk) gives the verdicts of the lines the chunk
  // completes, end() those of a last line without its end. Options as
  // verifyLines'. One stream is open at a time on a verifier: any other
  // call on it (verify, verifyLines, stream, warm, addProfile) ends the
  // open stream first, and that stream's push and end then throw an
  // Error that says which call ended it (a line it had begun is lost;
  // before, push said only "the stream is ended" and end gave nothing):
  // a server that streams several requests at once loads a verifier for
  // each.
  stream({ name = 'stdin', strict = false, output = 'object' } = {}) {
    this.#endStream('stream()');
    const x = this.#x;
    this.#call(x.streamStart, name, new Uint8Array(0), strict, output);
    const self = this;
    let ended = ''; // why push and end throw: another call ended the stream
    const finish = () => {
      s.open = false;
      self.#stream = null;
      x.setStrict(strict ? 1 : 0);
      x.streamEnd();
      return self.#out(output);
    };
    const s = {
      open: true,
      push(chunk) {
        if (ended) throw new Error(ended);
        if (!s.open) throw new Error('the stream is ended: its end() was called');
        const data = toBytes(chunk, 'a chunk of JSON Lines');
        x.setStrict(strict ? 1 : 0);
        const p = x.input(data.length);
        new Uint8Array(x.memory.buffer, p, data.length).set(data);
        x.streamPush();
        return self.#out(output);
      },
      end() {
        if (ended) throw new Error(ended);
        if (!s.open) return output === 'object' ? [] : output === 'text' ? '' : new Uint8Array(0);
        return finish();
      },
    };
    this.#stream = {
      interrupt(by) {
        finish();
        ended = `the stream is ended: ${by} on the same verifier ended it, and a line it had begun and not ended is lost ` +
          '(a verifier has one stream open at a time, and its other calls end it: a server that streams several requests at once loads a verifier for each)';
      },
    };
    return s;
  }
}

let shared = null; // the verifier loadVerifier started first

// loadVerifier compiles and starts the verifier's module and returns it;
// the module-level verify and verifyLines use the first one started.
// options.wasm: the module, its bytes, its URL or path, or a Response (by
// default dist/verifier.wasm beside the kit's src/).
export async function loadVerifier({ wasm } = {}) {
  const module = await moduleOf(wasm);
  let memory = null;
  const webcrypto = globalThis.crypto ?? (isNode ? (await import('node:crypto')).webcrypto : undefined);
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasiImports(() => memory, null, webcrypto) });
  memory = instance.exports.memory;
  if (instance.exports._initialize) instance.exports._initialize(); // not in a snapshot, initialized already
  const v = new Verifier(instance);
  shared ??= v;
  return v;
}

function started() {
  if (!shared) throw new Error('the verifier is not loaded: await loadVerifier() first');
  return shared;
}

// verify verifies one replay with the verifier loadVerifier started
// (Verifier.verify).
export function verify(input, options) { return started().verify(input, options); }

// verifyLines verifies a JSON Lines batch with the verifier loadVerifier
// started (Verifier.verifyLines).
export function verifyLines(input, options) { return started().verifyLines(input, options); }
