// snapshot(wasm): the verifier's module initialized ahead of time, for
// build.mjs.
//
// Go runs its package initialization in the module's _initialize, and
// that is most of the time loading takes: the YAML package compiles its
// regular expressions, unicode builds its tables. This runs _initialize
// once, here, with a WASI that gives fixed clocks and randomness, and
// writes the module as it is then: its memory as the data, its globals'
// values as their initial ones, and _initialize no more exported. The
// module then starts where the initialized one was, and the same input
// gives the same output every build (npm run build in js/).
//
// What it assumes of the module, as Go's wasip1 c-shared builds are: one
// memory, its own; globals of numbers; a table no call changes; no
// start function.

import { wasiImports, SNAPSHOT_CLOCK_END } from '../src/verify.js';

// Reading and writing the binary format.

function readU(b, i) {
  let r = 0n;
  let s = 0n;
  for (;;) {
    const x = b[i++];
    r |= BigInt(x & 0x7f) << s;
    s += 7n;
    if (x < 0x80) return [r, i];
  }
}

function u(n) {
  n = BigInt(n);
  const out = [];
  do {
    let x = Number(n & 0x7fn);
    n >>= 7n;
    if (n !== 0n) x |= 0x80;
    out.push(x);
  } while (n !== 0n);
  return out;
}

function s(n) {
  n = BigInt(n);
  const out = [];
  for (;;) {
    const x = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (x & 0x40) === 0) || (n === -1n && (x & 0x40) !== 0)) {
      out.push(x);
      return out;
    }
    out.push(x | 0x80);
  }
}

// cat joins byte arrays and arrays of bytes into one Uint8Array.
function cat(...parts) {
  return Buffer.concat(parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p))));
}

function vec(items) {
  return cat(u(items.length), ...items);
}

function section(id, payload) {
  return cat([id], u(payload.length), payload);
}

function sections(b) {
  const out = [];
  for (let i = 8; i < b.length;) {
    const id = b[i++];
    let n;
    [n, i] = readU(b, i);
    out.push({ id, body: b.subarray(i, i + Number(n)) });
    i += Number(n);
  }
  return out;
}

// exportsOf reads an export section: [{name, kind, index}].
function exportsOf(body) {
  let [n, i] = readU(body, 0);
  const out = [];
  for (let k = 0; k < n; k++) {
    let len;
    [len, i] = readU(body, i);
    const name = new TextDecoder().decode(body.subarray(i, i + Number(len)));
    i += Number(len);
    const kind = body[i++];
    let index;
    [index, i] = readU(body, i);
    out.push({ name, kind, index });
  }
  return out;
}

function exportSection(list) {
  return section(7, vec(list.map((e) => {
    const name = new TextEncoder().encode(e.name);
    return cat(u(name.length), name, [e.kind], u(e.index));
  })));
}

// globalsOf reads a global section: [{type, mut}], checking each starts
// as a constant.
function globalsOf(body) {
  let [n, i] = readU(body, 0);
  const out = [];
  for (let k = 0; k < n; k++) {
    const type = body[i++];
    const mut = body[i++];
    const op = body[i++];
    if (op === 0x41 || op === 0x42) [, i] = readU(body, i);
    else if (op === 0x43) i += 4;
    else if (op === 0x44) i += 8;
    else throw new Error(`global ${k}: an initial value that is not a constant (opcode ${op})`);
    if (body[i++] !== 0x0b) throw new Error(`global ${k}: an initial expression of more than a constant`);
    out.push({ type, mut });
  }
  return out;
}

function constant(type, value) {
  switch (type) {
    case 0x7f: return [0x41, ...s(value)];
    case 0x7e: return [0x42, ...s(value)];
    case 0x7d: { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, value, true); return [0x43, ...b]; }
    case 0x7c: { const b = new Uint8Array(8); new DataView(b.buffer).setFloat64(0, value, true); return [0x44, ...b]; }
  }
  throw new Error(`a global of type ${type}`);
}

// segments gives the memory's bytes as data segments: its runs of bytes
// that are not zero, runs closer than gap merged.
function segments(mem, gap = 32) {
  const out = [];
  let start = -1;
  let last = -1;
  for (let i = 0; i < mem.length; i++) {
    if (mem[i] === 0) continue;
    if (start >= 0 && i - last > gap) {
      out.push([start, last + 1]);
      start = -1;
    }
    if (start < 0) start = i;
    last = i;
  }
  if (start >= 0) out.push([start, last + 1]);
  return out.map(([a, b]) => cat([0x00, 0x41], s(a), [0x0b], u(b - a), mem.subarray(a, b)));
}

// snapshot returns the module wasm (bytes of a Go wasip1 c-shared build)
// with its _initialize run.
export async function snapshot(wasm) {

  const secs = sections(wasm);
  const find = (id) => secs.find((x) => x.id === id);
  if (!find(7) || !find(6) || !find(5) || find(8)) throw new Error(`not a module this snapshot knows (exports, globals, memory, no start)`);
  const exps = exportsOf(find(7).body);
  const globals = globalsOf(find(6).body);
  if (!exps.some((e) => e.name === '_initialize')) throw new Error(`no _initialize: is it snapshot already?`);

  // The module with every global exported, to read them.
  const probe = cat(wasm.subarray(0, 8), ...secs.map((x) => (x.id === 7
    ? exportSection([...exps, ...globals.map((g, k) => ({ name: `\0global${k}`, kind: 3, index: k }))])
    : section(x.id, x.body))));
  let memory = null;
  const fixed = { clock: 0 }; // the clocks and randomness the snapshot sees: fixed
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(probe), {
    wasi_snapshot_preview1: wasiImports(() => memory, fixed),
  });
  memory = instance.exports.memory;
  instance.exports._initialize();
  if (fixed.clock >= SNAPSHOT_CLOCK_END) throw new Error(`the module read the clock past ${SNAPSHOT_CLOCK_END} ns in its initialization`);

  const mem = new Uint8Array(memory.buffer);
  if (find(12)) throw new Error(`a data count section: not written by this snapshot`);
  const out = [wasm.subarray(0, 8)];
  for (const x of secs) {
    switch (x.id) {
      case 5: { // the memory: as many pages as it has now
        const flags = x.body[1];
        let [min, i] = readU(x.body, 2);
        const rest = flags & 1 ? [...x.body.subarray(i)] : [];
        min = mem.length / 65536;
        out.push(section(5, cat([1, flags], u(min), rest)));
        break;
      }
      case 6: // the globals: their values now
        out.push(section(6, vec(globals.map((g, k) => cat([g.type, g.mut], constant(g.type, instance.exports[`\0global${k}`].value), [0x0b])))));
        break;
      case 7: // _initialize has run
        out.push(exportSection(exps.filter((e) => e.name !== '_initialize')));
        break;
      case 11: // the data: the memory now
        out.push(section(11, vec(segments(mem))));
        break;
      default:
        out.push(section(x.id, x.body));
    }
  }
  return cat(...out);
}
