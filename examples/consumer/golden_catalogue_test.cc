// The installed golden catalogue reads and judges: every case's stored outputs (or, for a
// must-reject case, their absence) are conformant by the installed oracle.
#include <gtest/gtest.h>

#include "onnx_io/case_io.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace {

TEST(InstalledGolden, EveryCaseJudgesConformantOnItsOwnOutputs) {
  int cases = 0, computed = 0;
  for (const std::string& dir : qconform::FindCaseDirectories({QCONFORM_GOLDEN})) {
    for (const qconform::DataSet& data : qconform::ReadCaseDirectory(dir).data_sets) {
      if (data.then) continue;  // Quantize -> Dequantize chains: `qconform check` judges those
      qconform::BackendResult observed{std::nullopt, data.outputs};
      if (data.outputs.empty() || !data.has_output.at(0)) {
        observed = {qconform::BackendError{qconform::ErrorKind::kRejectedAtLoad, "refused"}, {}};
      }
      const qconform::CaseResult r = qconform::JudgeCase(data.c, observed, {});
      EXPECT_TRUE(qconform::IsPass(r.kind))
          << data.c.id << ": " << qconform::KindName(r.kind) << ": " << r.detail;
      ++cases;
      computed += r.kind == qconform::Kind::kConformant;
    }
  }
  EXPECT_GT(cases, 900);
  EXPECT_GT(computed, 500);
}

}  // namespace
