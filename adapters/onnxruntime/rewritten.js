// Reading protobuf messages field by field (the TensorProtos of runner.js), and what ONNX Runtime
// ran after its graph optimizations: the nodes of the optimized model it writes
// (SessionOptions.optimizedModelFilePath), read from the ModelProto's bytes. Only the fields
// needed are read (ModelProto.graph = 7, GraphProto.node = 1, NodeProto.op_type = 4 and
// domain = 7); subgraphs are not entered.
'use strict';

function readVarint(buf, pos) {
  let value = 0n, shift = 0n;
  for (;;) {
    if (pos.at >= buf.length) throw new Error('truncated varint');
    const b = buf[pos.at++];
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return value;
    shift += 7n;
  }
}

// Calls visit(field, bytes) for each length-delimited field of one message and, when given,
// visitVarint(field, value) for each varint; skips the fixed-size ones.
function eachField(buf, visit, visitVarint = () => {}) {
  const pos = {at: 0};
  while (pos.at < buf.length) {
    const key = Number(readVarint(buf, pos));
    const field = key >>> 3, wire = key & 7;
    if (wire === 0) {
      visitVarint(field, readVarint(buf, pos));
    } else if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      visit(field, buf.subarray(pos.at, pos.at + len));
      pos.at += len;
    } else if (wire === 5) {
      pos.at += 4;
    } else if (wire === 1) {
      pos.at += 8;
    } else {
      throw new Error('unsupported protobuf wire type ' + wire);
    }
  }
}

// The top-level graph's nodes as "domain.op_type" ("com.microsoft.QLinearAdd"; ai.onnx's without
// a domain), in the model's order.
function nodesOf(model) {
  const nodes = [];
  eachField(model, (field, graph) => {
    if (field !== 7) return;
    eachField(graph, (f, node) => {
      if (f !== 1) return;
      let opType = '', domain = '';
      eachField(node, (g, bytes) => {
        if (g === 4) opType = bytes.toString('utf8');
        if (g === 7) domain = bytes.toString('utf8');
      });
      nodes.push(domain && domain !== 'ai.onnx' ? domain + '.' + opType : opType);
    });
  });
  return nodes;
}

// The kernels a rewritten graph ran, for the report: the distinct node types, in order, with a
// count where one occurs more than once ("Transpose x2, com.microsoft.QLinearConv").
function ranAs(model) {
  const counts = new Map();
  for (const n of nodesOf(model)) counts.set(n, (counts.get(n) || 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? n + ' x' + k : n)).join(', ');
}

module.exports = {readVarint, eachField, ranAs};
