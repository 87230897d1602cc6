#!/usr/bin/env node
// `tileproof verify --json` in node, with the kit's verifier in process
// (src/verify.js, docs/web.md): for the same arguments it prints the same
// verdict lines, byte for byte; a summary goes to stderr.
//
//   node js/examples/verify.mjs FILE|DIR|-...
//
// A FILE is read as given (a .jsonl file a replay a line), a DIR searched
// for replay files (.yaml, .yml, .json, .jsonl; not manifest.yaml nor
// hidden files; regular files only), - reads JSON Lines from stdin as
// they come. Exit status 1 when a replay is invalid, 2 when one cannot be
// read, as the command's.
//
// Paths are handled as bytes (strings of latin1, a character a byte), as
// the command handles them: a file whose name is not UTF-8 is read and
// named as there, and names on stderr are escaped as the command escapes
// them for a terminal.

import { readFile, readdir, stat, lstat, readlink } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { join, extname, basename, dirname, isAbsolute, relative, sep } from 'node:path';
import { loadVerifier } from '../src/verify.js';

const USAGE = 'usage: node verify.mjs [--strict] [--profile FILE]... FILE|DIR|-...\n';
let flags, args;
try {
  ({ values: flags, positionals: args } = parseArgs({
    allowPositionals: true,
    options: { strict: { type: 'boolean', default: false }, profile: { type: 'string', multiple: true, default: [] }, help: { type: 'boolean', short: 'h' } },
  }));
} catch (e) {
  // A usage error, exit status 2 as the command's (before: node's stack
  // trace, exit status 1).
  process.stderr.write(`verify.mjs: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (args.length === 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}

// TILEPROOF_KIT_WASM names a module to load instead of dist/verifier.wasm
// (the differential test's fresh build).
let verifier;
try {
  verifier = await loadVerifier({ wasm: process.env.TILEPROOF_KIT_WASM || undefined });
} catch (e) {
  // The module not built, or not a module: exit status 2, as a replay
  // that cannot be read (before: node's stack trace, exit status 1).
  process.stderr.write(`verify.mjs: cannot load the verifier: ${e.message}\n`);
  process.exit(2);
}
for (const file of flags.profile) {
  try {
    verifier.addProfile(await readFile(file), { file });
  } catch (e) {
    fail('--profile', e);
  }
}
const { strict } = flags;
const tally = { count: 0, valid: 0, invalid: 0, unreadable: 0, skipped: 0 };

// A path is a latin1 string, a character a byte of the file's name:
// path.join and path.relative work on it as on bytes, and string order is
// byte order. raw makes one of a command-line argument; bytes gives the
// name for fs and the verifier.
const raw = (arg) => Buffer.from(arg, 'utf8').toString('latin1');
const bytes = (p) => Buffer.from(p, 'latin1');

// shown is a path as a terminal may show it: printable characters as
// they are; control characters, bytes that are not UTF-8, and format and
// separator characters (which could rewrite a terminal or reorder a
// line) escaped, as the command's messages escape them.
function shown(p) {
  let out = '';
  const b = bytes(p);
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c >= 0x20 && c < 0x7f) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    const n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
    const seq = b.subarray(i, i + n);
    const s = n > 1 && seq.length === n ? seq.toString('utf8') : '';
    const cp = s.codePointAt(0);
    if (s === '' || !Buffer.from(s, 'utf8').equals(seq)) { // a byte that starts no character
      out += `\\x${c.toString(16).padStart(2, '0')}`;
      i++;
    } else if (cp === 0xfffd || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u.test(s)) {
      out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
      i += n;
    } else {
      out += s;
      i += n;
    }
  }
  return out;
}

// emit writes verdict lines as the verifier gives them, and counts them.
async function emit(bytes) {
  if (bytes.length === 0) return;
  for (const line of new TextDecoder().decode(bytes).split('\n').slice(0, -1)) {
    const vd = JSON.parse(line);
    tally.count++;
    if (vd.valid) tally.valid++;
    else if (vd.reason === 'malformed' || vd.reason === 'refused') tally.unreadable++;
    else tally.invalid++;
  }
  if (!process.stdout.write(bytes)) await new Promise((r) => process.stdout.once('drain', r));
}

function isReplayFile(name) { // name: a path
  const base = basename(name);
  if (base === 'manifest.yaml' || base.startsWith('.')) return false;
  return ['.yaml', '.yml', '.json', '.jsonl'].includes(extname(base));
}

async function verifyFile(path) {
  let data;
  try {
    data = await readFile(bytes(path));
  } catch (e) {
    fail(path, e);
  }
  if (path.endsWith('.jsonl')) return emit(verifier.verifyLines(data, { name: bytes(path), strict, output: 'bytes' }));
  return emit(verifier.verify(data, { name: bytes(path), strict, output: 'bytes' }));
}

// fail reports what went wrong with path (or with a flag), and exits 2.
// A file system error's message is cut before the path it quotes
// unescaped ("ENOENT: no such file or directory").
function fail(path, e) {
  const why = e.code && e.syscall ? e.message.split(`, ${e.syscall} `)[0] : e.message;
  process.stderr.write(`verify.mjs: ${shown(path)}: ${shown(raw(why))}\n`);
  process.exit(2);
}

// isPack reports whether the directory dir, under the directory root
// named, is a case pack (it holds a regular pack.yaml): cases, not
// replays. As the command reads through root alone (an os.Root), a link
// is followed only while it is relative and stays inside root.
async function isPack(root, dir) {
  let file = join(dir, 'pack.yaml');
  try {
    for (let links = 0; links < 40; links++) {
      const info = await lstat(bytes(file));
      if (!info.isSymbolicLink()) return info.isFile();
      const to = (await readlink(bytes(file), { encoding: 'buffer' })).toString('latin1');
      if (isAbsolute(to)) return false;
      file = join(dirname(file), to);
      const rel = relative(root, file);
      if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
    }
  } catch {
    // none, or not readable: not a pack
  }
  return false;
}

// walk lists the replay files under dir, as the command does: regular
// files only, outside case packs (anything else is skipped with a note),
// sorted by path.
async function walk(dir, rel, files) {
  for (const d of await readdir(bytes(join(dir, rel)), { withFileTypes: true, encoding: 'buffer' })) {
    const name = Buffer.from(d.name).toString('latin1');
    const r = rel === '' ? name : join(rel, name);
    if (d.isDirectory() && (await isPack(dir, join(dir, r)))) {
      tally.skipped++;
      process.stderr.write(`verify.mjs: skipped ${shown(join(dir, r))}: a case pack (it holds pack.yaml)\n`);
    } else if (d.isDirectory()) await walk(dir, r, files);
    else if (!isReplayFile(r)) continue;
    else if (!d.isFile()) {
      tally.skipped++;
      process.stderr.write(`verify.mjs: skipped ${shown(join(dir, r))}: not a regular file\n`);
    } else files.push(join(dir, r));
  }
  return files;
}

async function verifyStdin() {
  const s = verifier.stream({ name: 'stdin', strict, output: 'bytes' });
  for await (const chunk of process.stdin) await emit(s.push(chunk));
  await emit(s.end());
}

// Every argument is looked at before any is read, as the command looks
// at them: one that does not exist is the error, and no verdict is
// written (a misspelt last argument does not cost the batch before it).
const infos = [];
for (const given of args) {
  if (given === '-') continue;
  try {
    infos.push(await stat(bytes(raw(given))));
  } catch (e) {
    fail(raw(given), e);
  }
}

for (const given of args) {
  if (given === '-') {
    await verifyStdin();
    continue;
  }
  const arg = raw(given);
  const info = infos.shift();
  if (!info.isDirectory()) {
    await verifyFile(arg);
    continue;
  }
  if (await isPack(arg, arg)) fail(arg, new Error('a case pack (it holds pack.yaml), not replays'));
  const files = await walk(arg, '', []);
  if (files.length === 0) fail(arg, new Error('no replay files (.yaml, .yml, .json, .jsonl)'));
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // by bytes: a latin1 string's order
  for (const f of files) await verifyFile(f);
}

process.stderr.write(`${tally.count} replays: ${tally.valid} valid, ${tally.invalid} invalid, ${tally.unreadable} unreadable` +
  (tally.skipped ? `, ${tally.skipped} skipped (each named on stderr)` : '') + '\n');
process.exitCode = tally.unreadable > 0 ? 2 : tally.invalid > 0 ? 1 : 0;
