// The ONNX Runtime adapter's type table (adapters/onnxruntime/types.js) names each data_type
// number as the registry does (`qconform types --json`), in the binding's spelling.
//   node type_tables_test.js QCONFORM SOURCE_DIR
'use strict';
const {execFileSync} = require('child_process');
const path = require('path');

const [qconform, source] = process.argv.slice(2);
const registry = JSON.parse(execFileSync(qconform, ['types', '--json'], {encoding: 'utf8'}));
const {kTypeNames, kTypeNumbers} = require(path.resolve(source, 'adapters/onnxruntime/types.js'));
// onnxruntime-node spells two types its own way.
const kBindingSpelling = {float: 'float32', double: 'float64'};

let failures = 0;
for (const [number, name] of Object.entries(kTypeNames)) {
  const onnx = registry.onnx_names[number];
  const want = kBindingSpelling[onnx] || onnx;
  if (name !== want) {
    console.log(`FAIL data_type ${number}: the adapter says ${name}, the registry ${onnx}`);
    failures++;
  }
  if (kTypeNumbers[name] !== Number(number)) {
    console.log(`FAIL ${name} maps back to ${kTypeNumbers[name]}, not ${number}`);
    failures++;
  }
}
const checked = Object.keys(kTypeNames).length;
console.log(`\n${checked - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
