// A case written with the oracle's verdict, so that any runner can judge its own results without
// linking qconform (golden/INTERPRETING.md, contract version 3):
//   test_data_set_0/output_K.pb                       the exact result (none when must-reject)
//   test_data_set_0/range/lo/output_K.pb, range/hi/   each element's admitted range [lo, hi],
//                                                     for each output where it is wider than
//                                                     the exact value (docs/semantics.md#d29)
//   test_data_set_0/admissible/<strategy>/output_K.pb another admitted strategy's result, for
//                                                     each output where it differs from exact
//   test_data_set_0/any/output_K.pb                   a uint8 mask: 1 where any value is admissible
//   test_data_set_0/outcomes/<name>/...               a whole other admissible outcome, laid out
//                                                     the same way (output_K.pb, any/)
// A must-reject case still declares its outputs, as the operator would produce them, so every
// runner loads the model the same way. Shared by `qconform golden`, `generate` and reproducers.
#pragma once

#include <string>
#include <vector>

#include "oracle/core/case.h"
#include "oracle/semantics/oracle.h"

namespace qconform {

struct WrittenCase {
  // "outputs", "reject:<rule-id>" or "implementation-defined:<rule-id>".
  std::string expected;
  bool may_reject = false;  // refusing the case is conformant
  // What is stored besides the exact result: strategy names, "range", "any", "outcome:<name>".
  std::vector<std::string> alternatives;
};

// `oracle`: the oracle's result for c when the caller has it (a run's failing case), else nullptr
// and the oracle runs.
WrittenCase WriteOracleCase(const std::string& dir, const Case& c,
                            const OracleResult* oracle = nullptr);

// A Quantize -> Dequantize chain: `second` takes `first`'s exact output as x; the model's one
// output is `second`'s exact result, judged exactly. Both must be valid without
// implementation-defined elements (std::runtime_error otherwise).
WrittenCase WriteOracleChain(const std::string& dir, const Case& first, const Case& second);

// "onnx-reference: y_scale 1/255" -> "onnx-reference-y_scale-1-255": a directory name.
std::string OutcomeDirectoryName(const std::string& name);

}  // namespace qconform
