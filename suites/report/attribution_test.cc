// A failure of ONNX Runtime at an optimization level is the rewrite's finding when the
// kernels-alone baseline does not list the case (docs/semantics.md#d34), and says what the
// rewrite did and what ran; a case the kernels fail too says so; passes get nothing.
#include "runner/attribution.h"

#include <gtest/gtest.h>

namespace qconform::runner {
namespace {

CaseResult Failing(std::string id, std::string deviation, std::string ran) {
  CaseResult r;
  r.id = std::move(id);
  r.kind = Kind::kWrongOutputs;
  r.deviation = std::move(deviation);
  r.ran = std::move(ran);
  return r;
}

TEST(Attribution, TheKernelsAloneBaselineDecidesWhoseFindingItIs) {
  Expectations kernels;
  kernels.path = "/x/suites/expectations/onnxruntime-1.30.txt";
  kernels.entries = {{"ql-kernel-bug", Kind::kWrongOutputs, "its kernel"}};
  std::vector<CaseResult> results = {
      Failing("qdq13-add-ties-uint8", "y_zero_point added before rounding",
              "com.microsoft.QLinearAdd"),
      Failing("ql-kernel-bug", "", ""), Failing("qdq13-add-per-axis-uint8", "", "")};
  results[2].kind = Kind::kRejectedValid;
  CaseResult pass;
  pass.id = "qdq13-concat-uint8";
  pass.kind = Kind::kConformant;
  results.push_back(pass);
  Attribute(results, kernels);
  EXPECT_EQ(results[0].attribution,
            "y_zero_point added before rounding, after the rewrite into "
            "com.microsoft.QLinearAdd: the rewrite's finding (right with the kernels alone, "
            "onnxruntime-1.30.txt)");
  EXPECT_EQ(results[1].attribution,
            "wrong with the kernels alone too (onnxruntime-1.30.txt: wrong-outputs)");
  EXPECT_EQ(results[2].attribution,
            "rejected-valid: the rewrite's finding (right with the kernels alone, "
            "onnxruntime-1.30.txt)");
  EXPECT_EQ(results[3].attribution, "");
}

TEST(Attribution, NoKernelsAloneBaselineNoAttribution) {
  std::vector<CaseResult> results = {Failing("qdq13-add-ties-uint8", "y", "z")};
  Attribute(results, Expectations{});
  EXPECT_EQ(results[0].attribution, "");
}

}  // namespace
}  // namespace qconform::runner
