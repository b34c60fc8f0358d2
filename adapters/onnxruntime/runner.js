#!/usr/bin/env node
// The ONNX Runtime adapter: a long-lived Node.js process that speaks adapters/PROTOCOL.md and
// runs each case with onnxruntime-node's CPU kernels, or with QCONFORM_ORT_PACKAGE=onnxruntime-web
// with the WebAssembly build's kernels (the wasm execution provider, one thread): a second build
// of one codebase, with its own kernels instead of x86 MLAS. It never judges a result; it only reports
// what ORT computed or the error ORT raised.
//
//   node runner.js                       serve the protocol on stdin/stdout
//   node runner.js --once CASE_DIR OUT   run one case directory (for reproducers), then exit
//   node runner.js --capture DIR OUT     run DIR/model.onnx from its path (external data beside
//                                        it), fed DIR/test_data_set_0/input_K.pb, every output to
//                                        OUT/output_K.pb; answers one @qconform ok/error line
//                                        (qconform audit's reference run)
//
// Sessions are created with one intra-op thread (deterministic, comparable runs) and, by
// default, with graph optimizations disabled: ORT's kernels, one node at a time. With
// QCONFORM_ORT_LEVEL=basic|extended|all the session runs at that optimization level, as users run
// models ("all" is ORT's default), and QCONFORM_ORT_CONFIG="key=value;..." sets session config
// entries (session.disable_quant_qdq=1, ...) to switch single rewrites off. The backend's name
// then says so (onnxruntime-all, onnxruntime-all+disable_quant_qdq), so each configuration has
// its own baseline, and the native build answers each case with ran.txt: the kernels of the
// rewritten graph (its optimized model; onnxruntime-web cannot write one).
'use strict';

const fs = require('fs');
const path = require('path');

const os = require('os');
const {readVarint, eachField, ranAs} = require('./rewritten.js');

const kPackage = process.env.QCONFORM_ORT_PACKAGE || 'onnxruntime-node';
const kWeb = kPackage === 'onnxruntime-web';
const kLevel = process.env.QCONFORM_ORT_LEVEL || 'disabled';
if (!['disabled', 'basic', 'extended', 'all'].includes(kLevel)) {
  process.stderr.write('qconform onnxruntime adapter: QCONFORM_ORT_LEVEL=' + kLevel +
                       ' is not disabled, basic, extended or all\n');
  process.exit(3);
}
// Session config entries, "key=value;key=value", as the binding's nested `extra` object.
const kConfig = (process.env.QCONFORM_ORT_CONFIG || '').split(';').filter((e) => e !== '');
const kExtra = {};
for (const entry of kConfig) {
  const m = /^([A-Za-z0-9_.]+)=([^;]*)$/.exec(entry);
  if (!m) {
    process.stderr.write('qconform onnxruntime adapter: QCONFORM_ORT_CONFIG entry "' + entry +
                         '" is not key=value\n');
    process.exit(3);
  }
  const keys = m[1].split('.');
  let at = kExtra;
  keys.slice(0, -1).forEach((k) => at = at[k] = at[k] || {});
  at[keys[keys.length - 1]] = m[2];
}
const kOptimized = kLevel !== 'disabled';
let ort;
try {
  ort = require(kPackage);
} catch (e) {
  process.stderr.write(
      'qconform onnxruntime adapter: cannot load ' + kPackage + ' (' + e.message +
      '); run tools/setup.sh, or set NODE_PATH to the node_modules that holds it\n');
  process.exit(3);
}
ort.env.logLevel = 'fatal';
if (kWeb) ort.env.wasm.numThreads = 1;

// ---- TensorProto, the few fields qconform's case files use --------------------------------

// ONNX data_type numbers and the binding's names for the types it can carry (types.js).
const {kTypeNames, kTypeNumbers} = require('./types.js');
const kArrays = {
  float32: Float32Array, uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array,
  int16: Int16Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array,
  float16: Uint16Array, float64: Float64Array, uint32: Uint32Array, uint64: BigUint64Array,
  uint4: Uint8Array, int4: Uint8Array,
};

function decodeTensor(buf) {
  const t = {dims: [], dataType: 0, name: '', raw: Buffer.alloc(0)};
  eachField(buf, (field, bytes) => {
    if (field === 1) {  // packed dims
      const inner = {at: 0};
      while (inner.at < bytes.length) t.dims.push(Number(BigInt.asIntN(64, readVarint(bytes, inner))));
    } else if (field === 8) {
      t.name = bytes.toString('utf8');
    } else if (field === 9) {
      t.raw = Buffer.from(bytes);
    } else if (field === 4 || field === 5 || field === 7) {
      throw new Error('typed data fields are not supported by this adapter; write raw_data');
    }
  }, (field, v) => {
    if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
    if (field === 2) t.dataType = Number(v);
  });
  return t;
}

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return Buffer.from(out);
}

function encodeTensor(name, dataType, dims, raw) {
  const parts = [];
  for (const d of dims) parts.push(Buffer.from([0x08]), varint(d));
  parts.push(Buffer.from([0x10]), varint(dataType));
  const nameBytes = Buffer.from(name, 'utf8');
  parts.push(Buffer.from([0x42]), varint(nameBytes.length), nameBytes);
  parts.push(Buffer.from([0x4a]), varint(raw.length), raw);
  return Buffer.concat(parts);
}

function toOrtTensor(t, where) {
  const type = kTypeNames[t.dataType];
  if (!type) throw new Error(where + ': data_type ' + t.dataType + ' cannot be carried by this binding');
  const Array = kArrays[type];
  const raw = Buffer.from(t.raw);  // aligned copy
  const data = new Array(raw.buffer, raw.byteOffset, raw.byteLength / Array.BYTES_PER_ELEMENT);
  return new ort.Tensor(type, data, t.dims);
}

function fromOrtTensor(name, tensor) {
  const dataType = kTypeNumbers[tensor.type];
  if (!dataType) throw new Error('output ' + name + ' has type ' + tensor.type + ', unknown to the adapter');
  const d = tensor.data;
  const raw = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  return encodeTensor(name, dataType, tensor.dims, raw);
}

// ---- running one case ----------------------------------------------------------------------

class CaseError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

function oneLine(s) {
  return String(s).replace(/\s+/g, ' ').trim();
}

// ORT refuses a model it has no kernel for ("Could not find an implementation"): for an invalid
// case that is the required refusal, for a valid one a gap of the runtime. Only the binding's own
// limits (an output type it cannot hand back) are "unsupported".
function loadErrorKind(message) {
  return /Unsupported data type/.test(message) ? 'unsupported' : 'rejected-at-load';
}

// Runs one case whose files `read(name)` gives (a Buffer, or undefined when absent); returns
// output_K.pb's bytes in graph-output order, and what the rewritten graph ran (or '').
// `modelPath`, when given, is where the model is read from instead (its external data is found
// beside it).
async function runCase(read, modelPath) {
  let session, ran = '';
  const rewritten = path.join(os.tmpdir(), 'qconform-ort-' + process.pid + '.onnx');
  try {
    const model = modelPath || read('model.onnx');
    if (!model) throw new Error('the case has no model.onnx');
    session = await ort.InferenceSession.create(model, {
      executionProviders: [kWeb ? 'wasm' : 'cpu'],
      graphOptimizationLevel: kLevel,
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 4,  // errors come back as exceptions; ORT's own log would repeat them
      extra: kExtra,
      ...(kOptimized && !kWeb ? {optimizedModelFilePath: rewritten} : {}),
    });
    if (kOptimized && !kWeb && fs.existsSync(rewritten)) {
      ran = ranAs(fs.readFileSync(rewritten));
      fs.unlinkSync(rewritten);
    }
  } catch (e) {
    throw new CaseError(loadErrorKind(e.message), oneLine(e.message));
  }
  try {
    const feeds = {};
    session.inputNames.forEach((name, k) => {
      const file = 'test_data_set_0/input_' + k + '.pb';
      const bytes = read(file);
      if (!bytes) throw new CaseError('rejected-at-run', 'the case has no ' + file);
      feeds[name] = toOrtTensor(decodeTensor(bytes), file);
    });
    let results;
    try {
      results = await session.run(feeds);
    } catch (e) {
      const kind = /Unsupported (tensor|data) type/i.test(e.message) ? 'unsupported' : 'rejected-at-run';
      throw new CaseError(kind, oneLine(e.message));
    }
    return {outputs: session.outputNames.map((name) => fromOrtTensor(name, results[name])), ran};
  } finally {
    if (session.release) await session.release();
  }
}

// ---- the protocol --------------------------------------------------------------------------

function answer(line, frames = []) {
  const parts = [Buffer.from('@qconform ' + line + '\n')];
  for (const [name, bytes] of frames) {
    parts.push(Buffer.from('@qconform file ' + name + ' ' + bytes.length + '\n'), bytes);
  }
  process.stdout.write(Buffer.concat(parts));
}

// stdin as lines and byte counts: the frames of protocol 3 are bytes, not text.
function byteReader(stream) {
  let buffer = Buffer.alloc(0), ended = false, wake = null;
  stream.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    if (wake) wake();
  });
  stream.on('end', () => {
    ended = true;
    if (wake) wake();
  });
  const more = () => new Promise((resolve) => {
    wake = () => {
      wake = null;
      resolve();
    };
  });
  const take = (n, skip) => {
    const out = buffer.subarray(0, n);
    buffer = buffer.subarray(n + skip);
    return out;
  };
  return {
    async line() {  // null at the end of input
      for (;;) {
        const eol = buffer.indexOf(10);
        if (eol >= 0) return take(eol, 1).toString('utf8');
        if (ended) return null;
        await more();
      }
    },
    async bytes(n) {  // null when the input ends first
      for (;;) {
        if (buffer.length >= n) return take(n, 0);
        if (ended) return null;
        await more();
      }
    },
  };
}

// A frame's name: a relative path of portable characters, no empty, "." or ".." part.
function safeName(name) {
  return /^[A-Za-z0-9_.\/-]{1,255}$/.test(name) &&
         name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

// One request's frames ("file NAME SIZE", then SIZE bytes) as a Map, or a string saying why not.
async function readFrames(input, count) {
  const files = new Map();
  for (let i = 0; i < count; ++i) {
    const header = ((await input.line()) || '').split(' ');
    if (header.length !== 3 || header[0] !== 'file' || !/^\d{1,18}$/.test(header[2]) ||
        !safeName(header[1])) {
      return 'a broken frame header: ' + oneLine(header.join(' '));
    }
    const bytes = await input.bytes(Number(header[2]));
    if (bytes === null) return 'the input ended in frame ' + header[1];
    files.set(header[1], bytes);
  }
  return files;
}

async function serve() {
  // The name: the package's, the level where it is not "disabled", each config entry's last key
  // part (and its value where it is not 1).
  const tags = kConfig.map((e) => {
    const [key, value] = e.split('=');
    return '+' + key.split('.').pop() + (value === '1' ? '' : '=' + value);
  });
  const name = (kWeb ? 'onnxruntime-web' : 'onnxruntime') + (kOptimized ? '-' + kLevel : '') +
               tags.join('');
  const how = kOptimized ? 'graph optimizations at level ' + kLevel +
                               (kConfig.length ? ' (' + kConfig.join(', ') + ')' : '')
                         : 'graph optimizations disabled';
  answer('hello 3 ' + name + ' ' + ort.env.versions.common + ' ' +
         (kWeb ? 'WebAssembly kernels via onnxruntime-web in Node; '
               : 'CPU kernels via onnxruntime-node; ') + how + '; one thread');
  const input = byteReader(process.stdin);
  for (let line; (line = await input.line()) !== null;) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'quit') break;
    // Protocol 3: run ID COUNT, then COUNT frames; every answer repeats the ID.
    if (words[0] !== 'run' || words.length !== 3 || !/^\d{1,18}$/.test(words[2])) {
      answer('error ' + (words[1] || '?') + ' protocol-error unknown request: ' + oneLine(line));
      continue;
    }
    const id = words[1];
    const files = await readFrames(input, Number(words[2]));
    if (typeof files === 'string') {  // out of step: nothing after it can be trusted
      answer('error ' + id + ' protocol-error ' + files);
      break;
    }
    try {
      const {outputs, ran} = await runCase((name) => files.get(name));
      const frames = outputs.map((bytes, k) => ['output_' + k + '.pb', bytes]);
      if (ran) frames.push(['ran.txt', Buffer.from(ran, 'utf8')]);
      answer('ok ' + id + ' ' + frames.length, frames);
    } catch (e) {
      answer('error ' + id + ' ' + (e.kind || 'rejected-at-run') + ' ' + oneLine(e.message));
    }
  }
}

// One case directory run from the command line (--once, --capture): its outputs written to OUT.
async function runDirectory(dir, out, fromPath) {
  fs.mkdirSync(out, {recursive: true});
  const read = (name) => {
    const file = path.join(dir, name);
    return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
  };
  const result = await runCase(read, fromPath ? path.join(dir, 'model.onnx') : undefined);
  result.outputs.forEach((bytes, k) => {
    fs.writeFileSync(path.join(out, 'output_' + k + '.pb'), bytes);
  });
  return result;
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--capture' || args[0] === '--once') {
    if (args.length !== 3) {
      process.stderr.write('usage: runner.js ' + args[0] + ' DIR OUT_DIR\n');
      process.exit(2);
    }
    const capture = args[0] === '--capture';
    try {
      const {outputs, ran} = await runDirectory(args[1], args[2], capture);
      if (capture) {
        answer('ok 0 ' + outputs.length);
        return;
      }
      if (ran) fs.writeFileSync(path.join(args[2], 'ran.txt'), ran + '\n');
      process.stdout.write('ok: outputs written to ' + args[2] + '\n');
    } catch (e) {
      if (capture) {
        answer('error 0 ' + (e.kind || 'rejected-at-run') + ' ' + oneLine(e.message));
        return;
      }
      process.stdout.write((e.kind || 'error') + ': ' + e.message + '\n');
      process.exit(1);
    }
    return;
  }
  await serve();
}

main().catch((e) => {
  process.stderr.write('qconform onnxruntime adapter: ' + e.stack + '\n');
  process.exit(3);
});
