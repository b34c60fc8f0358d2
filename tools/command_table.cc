#include "tools/commands.h"

namespace qconform::tools {

namespace {

constexpr Command kCommands[] = {
    {"selfcheck", "decode and re-encode every code of every type of at most 16 bits",
     "usage: qconform selfcheck\n\n"
     "Decodes every code of every element type of at most 16 bits to its exact value and encodes\n"
     "it back, through the exact (multiprecision) path and the fast (double) path, and prints a\n"
     "table per type. Exit 0 when every code comes back, 1 otherwise.\n\n"
     "example:\n  qconform selfcheck\n",
     RunSelfcheck},
    {"eval", "write the oracle's exact outputs for a case directory",
     "usage: qconform eval CASE_DIR [--out DIR]\n\n"
     "Reads CASE_DIR (model.onnx and test_data_set_0/input_K.pb, the ONNX backend test layout),\n"
     "evaluates it with the oracle and writes output_K.pb with the exact result into\n"
     "CASE_DIR/test_data_set_0/, or into DIR with --out.\n\n"
     "exit status: 0 written; 3 the case is must-reject (prints 'rejected <rule-id>: <message>');\n"
     "2 bad input or usage. Implementation-defined findings are printed to stderr as notes.\n\n"
     "examples:\n"
     "  qconform eval golden/dq21-int4-blocked-axis1-zp\n"
     "  qconform eval my_case --out /tmp/expected\n",
     RunEval},
    {"check", "compare the stored outputs of case directories with the oracle",
     "usage: qconform check PATH... [--strict] [--strict-zero] [--op NAME]... [--expectations "
     "FILE] [--quiet]\n\n"
     "Finds every case directory (one holding model.onnx) under the PATHs and compares each\n"
     "test_data_set's output_K.pb with the oracle. Prints one line per case:\n"
     "  PASS                the outputs are admissible (or a must-reject case has no outputs)\n"
     "  FAIL                an element is not admissible (details follow, one line each)\n"
     "  REJECTED-BY-ORACLE  the case stores outputs but the specification forbids it\n"
     "  ERROR               the case cannot be read or judged\n"
     "  XFAIL / XPASS       a failure listed in --expectations / a listed case that passes\n"
     "  SKIP                an operator not selected by --op\n"
     "and closes with 'N passed, M failed'. A manifest.tsv at the top of a PATH is honoured.\n\n"
     "  --strict        admit only the exact result (no f32/out strategies)\n"
     "  --strict-zero   +0 and -0 differ\n"
     "  --op NAME       only cases of this operator (repeatable)\n"
     "  --expectations FILE  known failures: '<case-id> <KIND> <reason>' per line\n"
     "  --quiet         print only failures and the summary\n\n"
     "exit status: 0 when nothing failed, 1 otherwise, 2 on usage errors.\n\n"
     "examples:\n"
     "  qconform check golden\n"
     "  qconform check ../shared/onnx-node-tests --op DequantizeLinear\n",
     RunCheck},
    {"explain", "show the exact computation of one output element",
     "usage: qconform explain CASE_DIR --index I\n\n"
     "Prints, for element I (flat, row-major) of the output, the inputs it uses (codes and exact\n"
     "values), which x_scale element applies, and each admitted strategy step by step: x - zp,\n"
     "the roundings to the working type, the product, and the single rounding to the output.\n\n"
     "example:\n  qconform explain ../shared/onnx-node-tests/test_dequantizelinear_axis --index "
     "7\n",
     RunExplain},
    {"golden", "regenerate the golden catalogue, or verify the checked-in copy",
     "usage: qconform golden --update [--dir DIR]\n"
     "       qconform golden --verify [--dir DIR]\n\n"
     "The golden catalogue is a deterministic list of small cases "
     "(generators/golden_catalogue.cc)\n"
     "written as ONNX backend test data with the oracle's exact outputs, and a manifest.tsv.\n"
     "--update rewrites DIR (default: golden); --verify regenerates into a temporary directory "
     "and\n"
     "fails (exit 1) when any file differs from DIR, listing the differences.\n\n"
     "examples:\n  qconform golden --update --dir golden\n  qconform golden --verify --dir "
     "golden\n",
     RunGolden},
};

}  // namespace

std::span<const Command> AllCommands() {
  return kCommands;
}

}  // namespace qconform::tools
