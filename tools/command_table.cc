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
     "FILE] [--quiet]\n"
     "       qconform check CASE_DIR --outputs DIR   (a backend's outputs for one case)\n\n"
     "Finds every case directory (one holding model.onnx) under the PATHs and compares each\n"
     "test_data_set's output_K.pb with the oracle, judged and gated exactly as `qconform run`\n"
     "judges a backend (a data set without output files counts as a refusal). One line per\n"
     "case, '<gate> <case-id>  <kind>: <detail>', then one line per inadmissible element:\n"
     "  gates  pass, skip, expected-failure (listed in --expectations), new-failure,\n"
     "         changed-failure (listed with another kind), unexpected-pass, stale (listed, not "
     "found)\n"
     "  kinds  conformant, rejected-as-required, rejected-admissibly (passes); wrong-outputs,\n"
     "         aggregate-error (a long reduction's error beyond TOSA's dot-product bound),\n"
     "         accepted-invalid (outputs stored for a must-reject case), rejected-valid,\n"
     "         case-error (the case cannot be read or judged) (failures)\n"
     "and closes with 'N passed, M failed'. A manifest.tsv at the top of a PATH is honoured.\n\n"
     "  --strict        admit only the exact result (no f32/out strategies)\n"
     "  --strict-zero   +0 and -0 differ\n"
     "  --admit NAME    admit a named requantization (onnx-reference, q31-double-round, ...):\n"
     "                  its elements conform, reported as 'conformant with admitted strategy "
     "NAME'\n"
     "  --op NAME       only cases of this operator (repeatable; Graph: the QDQ graphs)\n"
     "  --expectations FILE  known failures, format 2: '<case-id> <kind> <reason>' per line\n"
     "  --quiet         print only failures and the summary\n"
     "  --outputs DIR   judge DIR/output_K.pb (what a backend wrote, a reproducer's observed/)\n"
     "                  instead of the case's own stored outputs\n\n"
     "exit status: 0 when nothing failed, 1 otherwise, 2 on usage errors.\n\n"
     "examples:\n"
     "  qconform check golden\n"
     "  qconform check /usr/share/libonnx-testdata/data/node --op DequantizeLinear\n"
     "  qconform check report/repro/CASE --outputs report/repro/CASE/observed\n",
     RunCheck},
    {"explain", "show the exact computation of one output element",
     "usage: qconform explain CASE_DIR [--index I] [--observed DIR] [--admit NAME]\n\n"
     "Prints, for element I (flat, row-major) of the output, the inputs it uses (codes and exact\n"
     "values), which x_scale element applies, and each admitted strategy step by step: x - zp,\n"
     "the roundings to the working type, the product, and the single rounding to the output.\n"
     "  --observed DIR  a backend's outputs (DIR/output_0.pb): its value is shown beside each\n"
     "                  strategy's result. A reproducer's observed/ is used by default.\n"
     "  --index I       the element; without it, the first element the backend got wrong\n"
     "  --admit NAME    a named strategy the run admitted (as qconform run --admit): elements it\n"
     "                  explains are not wrong, so the first wrong element is the run's\n\n"
     "examples:\n  qconform explain golden/dq13-seed-axis --index 7\n"
     "  qconform explain build/report/onnxruntime/repro/CASE\n",
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
    {"run", "run the conformance suite against a backend and write the report",
     "usage: qconform run --backend B [--filter TEXT]... [--op NAME]... [--strict] "
     "[--strict-zero]\n"
     "                    [--report DIR] [-j N] [--timeout S] [--expectations FILE] [--golden "
     "DIR]\n"
     "       qconform run --resume DIR\n\n"
     "Runs the golden catalogue against backend B, judges every result with the oracle, and\n"
     "compares the outcome with B's expectations baseline. Backends:\n"
     "  oracle              the oracle itself (must pass everything)\n"
     "  onnxruntime         ONNX Runtime's CPU kernels via onnxruntime-node (tools/setup.sh)\n"
     "  onnxruntime-web     the same through its WebAssembly build (onnxruntime-web)\n"
     "  onnxruntime:all     either at a graph optimization level (all, ORT's default; extended;\n"
     "                      basic), as users run models; ,KEY=VALUE adds a session config entry\n"
     "                      (onnxruntime:all,session.disable_quant_qdq=1)\n"
     "  exec:COMMAND        any command speaking adapters/PROTOCOL.md\n"
     "  plugin:LIB.so       a shared library implementing adapters/plugin/qconform_plugin.h\n"
     "  plugin:example      the in-tree example plugin (plain float32 DequantizeLinear)\n\n"
     "  --filter TEXT       only cases whose id contains TEXT (repeatable)\n"
     "  --op NAME           only cases of this operator (repeatable; as in check; Graph: the\n"
     "                      QDQ graph cases)\n"
     "  --shard K/N         only the K-th of N stable slices (by case id: a case keeps its shard\n"
     "                      when others are added); the baseline is met for the slice alone\n"
     "  --golden DIR        a catalogue of your own (default: the installed or source golden/);\n"
     "                      no generated cases are added unless --count asks for them\n"
     "  --profile NAME      judge every case under an implementation profile (tensorrt: "
     "TensorRT's\n"
     "                      Q/DQ layers); the catalogue's profile:NAME cases run only then\n"
     "  --strict            admit only the exact result (no f32/out strategies)\n"
     "  --strict-zero       +0 and -0 differ\n"
     "  --admit NAME        admit a named requantization knowingly (repeatable; see check)\n"
     "  --repro all         a reproducer (repro/<id>/) for every failure; by default a valid\n"
     "                      case the backend refused has none (its cause is in the report)\n"
     "  --report DIR        where to write report.md, report.html, results.json, results.jsonl,\n"
     "                      junit.xml and repro/ (default: qconform-report)\n"
     "  -j N                N backend processes in parallel (default 1)\n"
     "  --timeout S         seconds per case before the backend is killed (default 10)\n"
     "  --expectations FILE the baseline (default suites/expectations/<name>-<major.minor>.txt)\n"
     "  --count N, --seed S generated cases added to the golden ones (default 300, seed 20261122;\n"
     "                      see qconform generate)\n"
     "  --resume DIR        finish the interrupted run whose report directory is DIR, with its\n"
     "                      own options (DIR/run.json): the cases in its journal\n"
     "                      (DIR/observed.jsonl) are judged from what the backend returned\n"
     "                      then, the others run; the report is the uninterrupted run's\n\n"
     "Prints a progress bar, every difference from the baseline, and a summary.\n"
     "Ctrl-C (SIGINT) or SIGTERM stops the run: the backends' process groups are killed, the\n"
     "report covers the cases that finished and says it is incomplete.\n"
     "exit status: 0 the run matches the baseline; 1 it does not (a new failure, a changed\n"
     "failure kind, an unexpected pass, a stale entry); 2 usage or input errors; 130/143\n"
     "interrupted by SIGINT/SIGTERM.\n\n"
     "examples:\n"
     "  qconform run --backend onnxruntime --report build/report/onnxruntime\n"
     "  qconform run --backend plugin:./libmyruntime.so --filter dq21 -j 4\n",
     RunRun},
    {"merge", "merge the shards of one run into one report and one gate verdict",
     "usage: qconform merge DIR... --report OUT [--expectations FILE]\n\n"
     "DIR... are the report directories of one run's shards (qconform run --shard K/N, each\n"
     "perhaps on another machine), every K from 1 to N once. Their journals are judged again\n"
     "through the one judge, as --resume does, into OUT: one report.md/html, results.json and\n"
     "junit.xml, and one gate verdict against the baseline, stale entries judged across every\n"
     "shard. The merged report is the unsharded run's, timings aside; the backend is not\n"
     "needed. Refused: a missing, repeated or incomplete shard, shards of different options,\n"
     "backends or versions, and journals the catalogue no longer matches.\n"
     "  --expectations FILE  the baseline to gate against, in place of the shards' own; their\n"
     "                       relative paths (--expectations, --golden) are read where the\n"
     "                       shards ran when they are there, else from here\n\n"
     "exit status: 0 the merged run matches the baseline; 1 it does not; 2 usage or input\n"
     "errors.\n\n"
     "example:\n"
     "  qconform run --backend onnxruntime --shard 1/2 --report s1   # on one machine\n"
     "  qconform run --backend onnxruntime --shard 2/2 --report s2   # on another\n"
     "  qconform merge s1 s2 --report merged\n",
     RunMerge},
    {"audit", "judge every quantization node and QDQ group of a model on its own tensors",
     "usage: qconform audit MODEL.onnx --backend B [--inputs DIR | --random SEED] [--dim N=V]...\n"
     "                      [--reference R] [--report DIR] [-j N] [--timeout S] [--shard K/N]\n"
     "                      [--strict] [--strict-zero] [--admit NAME]...\n\n"
     "Finds every quantization node of the model (QuantizeLinear, DequantizeLinear,\n"
     "DynamicQuantizeLinear, the QLinear and Integer operators, the com.microsoft ones; in\n"
     "subgraphs too) and every QDQ group (DequantizeLinear -> a float operator -> QuantizeLinear,\n"
     "through a Relu or Clip; a Split to one QuantizeLinear per output; DequantizeLinear ->\n"
     "MatMul, Gemm or Conv with a float output). One\n"
     "run of the model on the reference R (default onnxruntime: ONNX Runtime's kernels alone;\n"
     "onnxruntime-web, onnxruntime:all, ...) returns every tensor they read. Each becomes a case\n"
     "in DIR/cases/<id>/ (the golden layout: `qconform check` and any ONNX runner take it), and\n"
     "the backend is judged on each, as `qconform run` judges it.\n\n"
     "  --inputs DIR   the model's inputs, DIR/<input name>.pb (TensorProto) or .npy\n"
     "  --random SEED  seeded random inputs of the declared shapes (the default, SEED 1);\n"
     "                 --dim NAME=V sets a symbolic dimension (default 1)\n"
     "  --report DIR   audit.md and audit.json (the wrong nodes first, worst first: elements\n"
     "                 outside the admitted range, the largest deviation in codes, the named\n"
     "                 cause, the reproducer), with the run's report.md, results.json,\n"
     "                 junit.xml and repro/ (default qconform-audit)\n"
     "  --batch-mb N   cases are built, run and reduced to rows in batches of about N MB of\n"
     "                 tensors (default 256), which bounds the audit's memory beyond the model\n\n"
     "A node that cannot be judged (an input computed inside a subgraph, an input the reference\n"
     "did not return, a case that cannot be built) is listed as not judged, with the reason.\n"
     "exit status: 0 every judged node conforms; 1 some are wrong; 2 bad input or usage.\n\n"
     "  qconform audit --merge DIR... --report OUT   the shards of one audit (--shard K/N, each\n"
     "                 with its own --report DIR) as one report\n\n"
     "examples:\n"
     "  qconform audit model.onnx --backend onnxruntime:all\n"
     "  qconform audit model.onnx --backend exec:'./my_runner' --inputs ./tensors -j 2\n",
     RunAudit},
    {"diff", "compare two runs case by case: regressions, fixes, changed kinds",
     "usage: qconform diff OLD NEW [--out DIR]\n\n"
     "OLD and NEW are results.json files, or report directories holding one (qconform run\n"
     "--report DIR): two runtime versions, two days, two backends. Lists every case whose\n"
     "outcome or kind changed, grouped by cause as the report groups failures: regressions\n"
     "(failing now, not before, or new and failing), then fixes, then changed kinds, then cases\n"
     "new or gone.\n"
     "  --out DIR   also write DIR/diff.md and DIR/diff.html\n\n"
     "exit status: 0 no regression, 1 a regression, 2 usage or input errors.\n\n"
     "example:\n  qconform diff ort-1.30/ ort-1.31/ --out ort-diff\n",
     RunDiffCommand},
    {"baseline", "show or rewrite a backend's expectations baseline",
     "usage: qconform baseline --backend B [--save | --save-overlay] [--expectations FILE]\n"
     "                         [-j N] [--timeout S]\n"
     "                         [--op NAME]... [--golden DIR] (selecting cases as run does)\n\n"
     "Runs the whole golden catalogue against B and prints how its failures differ from the\n"
     "baseline: '+' a new failure, '~' a changed kind, '-' an entry that no longer fails.\n"
     "With --save, rewrites the baseline, keeping the reasons of unchanged entries (edit new\n"
     "reasons by hand: they are what a reader of the report sees).\n"
     "A host of a class whose results differ (x86 without VNNI: runner/host_class.h) reads the\n"
     "baseline with its overlay, <name>-<major.minor>.<class>.txt, over it; --save then rewrites\n"
     "the overlay when there is one, and --save-overlay writes it: what differs on this host.\n\n"
     "exit status: 0 saved, or no differences; 1 differences (without --save); 2 usage errors.\n\n"
     "example:\n  qconform baseline --backend onnxruntime --save\n",
     RunBaseline},
    {"generate", "write deterministic generated cases (valid and invalid) as case directories",
     "usage: qconform generate --out DIR [--op OP] [--seed S] [--count N] [--version V]... "
     "[--invalid-percent P]\n\n"
     "Generates N cases of OP (DequantizeLinear by default; QuantizeLinear, DynamicQuantizeLinear\n"
     "or all) from seed S (default 1) with qconform's own\n"
     "PRNG: the same seed writes byte-identical files on any machine. Valid cases are biased to\n"
     "the edges (extreme codes, -0, subnormals, NaN, ties, partial blocks, odd shapes) and carry\n"
     "the oracle's exact outputs; P percent (default 20) break exactly one rule and carry none.\n"
     "DIR/manifest.tsv lists each case with 'outputs' or 'reject:<rule-id>'.\n\n"
     "  --op OP       only cases of this operator (default DequantizeLinear; all: every one)\n"
     "  --profile P   valid cases are ones profile P (tensorrt) accepts too; all carry it\n"
     "  --version V   only this version of OP (10, 13, 19, 21, 23, 24, 25, com.microsoft:1, 11);\n"
     "                repeatable\n\n"
     "exit status: 0 written; 1 a generated case did not get its intended verdict; 2 usage.\n\n"
     "example:\n  qconform generate --seed 7 --count 1000 --out /tmp/gen --version 21\n",
     RunGenerate},
    {"types", "print the element-type table (--json: as data, for other languages' copies)",
     "usage: qconform types [--json]\n\n"
     "Prints one row per ONNX element type the oracle computes with: its data_type number,\n"
     "name, width, kind, sign, exponent and mantissa bits, bias, infinities, NaN encoding and\n"
     "largest finite value. --json writes the same as data (schema_version 1), with ONNX's\n"
     "name for every data_type number; the Python kit, golden/verify_outputs.py and the ONNX\n"
     "Runtime adapter keep copies of this table and are tested against it.\n",
     RunTypes},
    {"version", "print qconform's version and the libraries it was built with",
     "usage: qconform version   (or qconform --version)\n\n"
     "Prints the qconform version, the operator versions the oracle knows, and the ONNX,\n"
     "protobuf and compiler versions of this build.\n",
     RunVersion},
};

}  // namespace

std::span<const Command> AllCommands() {
  return kCommands;
}

}  // namespace qconform::tools
