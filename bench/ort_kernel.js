#!/usr/bin/env node
// One model's session.run time on ONNX Runtime (onnxruntime-node, one intra-op thread, its
// default optimization level), for qconform_bench --accumulate: the runtime's own kernel on the
// shape the oracle's accumulation is measured on.
//   node ort_kernel.js MODEL REPEATS NAME:TYPE:D0xD1x... ...
// Feeds each named input seeded bytes of its type (uint8, int8) and shape, runs twice to warm
// up, then REPEATS times; prints "@qconform seconds <median>".
'use strict';
const ort = require('onnxruntime-node');

async function main() {
  const [model, repeats, ...inputs] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', logSeverityLevel: 3,
  });
  const feeds = {};
  let seed = 12345;
  for (const spec of inputs) {
    const [name, type, dims] = spec.split(':');
    const shape = dims.split('x').map(Number);
    const count = shape.reduce((a, b) => a * b, 1);
    const data = type === 'int8' ? new Int8Array(count) : new Uint8Array(count);
    for (let i = 0; i < count; ++i) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      data[i] = (seed >>> 16) & 0xff;
    }
    feeds[name] = new ort.Tensor(type, data, shape);
  }
  const times = [];
  for (let r = -2; r < Number(repeats); ++r) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    if (r >= 0) times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  process.stdout.write('@qconform seconds ' + times[Math.floor(times.length / 2)] + '\n');
}

main().catch((e) => {
  process.stdout.write('@qconform error ' + String(e.message).replace(/\s+/g, ' ') + '\n');
  process.exit(1);
});
