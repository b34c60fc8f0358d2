// The vendor's kernel as an in-process backend: it implements qconform's Backend interface
// (adapters/backend.h) for what the kernel runs and refuses the rest, and the installed runner
// sends it golden cases and judges what comes back with the one judge, as `qconform run` does
// for the backends it ships.
#include <gtest/gtest.h>

#include <bit>
#include <iostream>
#include <memory>

#include "adapters/backend.h"
#include "my_kernel.h"
#include "runner/catalogue.h"
#include "runner/conformance_run.h"

namespace {

using qconform::BackendError;
using qconform::BackendResult;
using qconform::DataType;
using qconform::ErrorKind;

constexpr auto kInt8 = static_cast<int32_t>(DataType::kInt8);
constexpr auto kFloat = static_cast<int32_t>(DataType::kFloat);

class MyBackend : public qconform::Backend {
 public:
  explicit MyBackend(bool sloppy) : sloppy_(sloppy) {}
  std::string name() const override { return "my-runtime"; }
  std::string version() const override { return "1.0"; }
  std::string capabilities() const override {
    return "DequantizeLinear, int8 -> float, per-tensor";
  }

  BackendResult Run(const qconform::Case& c) override {
    const qconform::Tensor* x = c.input(0);
    const qconform::Tensor* scale = c.input(1);
    const qconform::Tensor* zero_point = c.input(2);
    const bool supported =
        c.domain.empty() && c.op_type == "DequantizeLinear" && x && x->data_type == kInt8 &&
        scale && scale->data_type == kFloat && scale->shape.empty() &&
        (!zero_point || (zero_point->data_type == kInt8 && zero_point->shape.empty())) &&
        (c.attributes.empty() || (c.attributes.size() == 1 && c.attribute("axis")));
    if (!supported) {
      return {BackendError{ErrorKind::kRejectedAtLoad,
                           "my-runtime runs int8 -> float per-tensor "
                           "DequantizeLinear only"},
              {}};
    }
    std::vector<int8_t> xs(x->codes.size());
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<int8_t>(x->codes[i]);
    const std::vector<float> s = {std::bit_cast<float>(scale->codes[0])};
    std::vector<int8_t> zp;
    if (zero_point) zp = {static_cast<int8_t>(zero_point->codes[0])};
    const std::vector<float> y = MyDequantize(xs, 1, s, zp, sloppy_);
    qconform::Tensor out{kFloat, x->shape, qconform::Codes(32, y.size()), false};
    for (size_t i = 0; i < y.size(); ++i) out.codes.set(i, std::bit_cast<uint32_t>(y[i]));
    return {std::nullopt, {out}};
  }

 private:
  bool sloppy_;
};

// Every golden int8 per-tensor DequantizeLinear case, through the runner, judged.
std::vector<qconform::CaseResult> RunGolden(bool sloppy) {
  const auto cases = qconform::runner::LoadCatalogue(QCONFORM_GOLDEN, {"-int8-pt"});
  qconform::runner::RunOptions options;
  options.backend = "my-runtime";  // only named: the one worker is the backend given below
  std::vector<qconform::CaseResult> results;
  for (auto& r : qconform::runner::RunCases(cases, options, std::make_unique<MyBackend>(sloppy),
                                            [](const qconform::CaseResult&, size_t) {})) {
    if (r) results.push_back(std::move(*r));
  }
  return results;
}

TEST(MyBackend, IsConformantOnTheGoldenInt8PerTensorCases) {
  int conformant = 0;
  for (const qconform::CaseResult& r : RunGolden(false)) {
    if (r.id.rfind("dq", 0) != 0) continue;  // QuantizeLinear's "-int8-pt" cases: refused
    EXPECT_EQ(r.kind, qconform::Kind::kConformant) << r.id << ": " << r.detail;
    conformant += r.kind == qconform::Kind::kConformant;
  }
  EXPECT_GE(conformant, 14);  // dq10 to dq25, with and without a zero point
}

TEST(MyBackend, TheJudgeCatchesAPrecisionBug) {
  int wrong = 0;
  for (const qconform::CaseResult& r : RunGolden(true)) {
    if (r.kind != qconform::Kind::kWrongOutputs) continue;
    ++wrong;
    std::cout << "  " << r.id << ": " << r.detail.substr(0, 160) << "\n";
  }
  EXPECT_GT(wrong, 0);
}

}  // namespace
