#include "bench/accumulate.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "adapters/exec_backend.h"
#include "adapters/onnxruntime/onnxruntime_backend.h"
#include "bench/compute_workloads.h"
#include "bench/measure.h"
#include "onnx_io/case_writer.h"
#include "onnx_io/model_builder.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/prng.h"
#include "oracle/semantics/integer/conv_accumulate.h"
#include "oracle/semantics/integer/matmul_accumulate.h"
#include "oracle/semantics/oracle.h"

namespace qconform::bench {
namespace {

namespace fs = std::filesystem;
using D = DataType;

struct Shape {
  std::string name;
  Case c;
  int64_t macs;
  std::string feeds;  // ort_kernel.js's NAME:TYPE:DIMS of the inputs fed
};

std::vector<Shape> Shapes() {
  std::vector<Shape> out;
  for (int64_t n : {256, 1024}) {
    Prng p(static_cast<uint64_t>(n));
    Tensor a = RandomCodes(p, D::kUint8, {n, n}), b = RandomCodes(p, D::kInt8, {n, n});
    b.is_initializer = true;
    Tensor za = MakeScalar(D::kUint8, 128);
    za.is_initializer = true;
    Case c = MakeCase("MatMulInteger", 10, {a, b, za});
    const std::string d = std::to_string(n) + "x" + std::to_string(n);
    out.push_back({"MatMulInteger uint8 x int8 " + std::to_string(n) + "^3", std::move(c),
                   n * n * n, "A:uint8:" + d});
  }
  {
    Prng p(56);
    Tensor x = RandomCodes(p, D::kUint8, {1, 64, 56, 56});
    Tensor w = RandomCodes(p, D::kUint8, {64, 64, 3, 3});
    w.is_initializer = true;
    Tensor zx = MakeScalar(D::kUint8, 128);
    zx.is_initializer = true;
    Case c = MakeCase("ConvInteger", 10, {x, w, zx});
    c.attributes["pads"] = Attribute::Ints({1, 1, 1, 1});
    c.attributes["kernel_shape"] = Attribute::Ints({3, 3});
    out.push_back({"ConvInteger uint8 3x3, 64 channels, 56x56", std::move(c), 64 * 64 * 9 * 56 * 56,
                   "x:uint8:1x64x56x56"});
  }
  return out;
}

template <typename F>
double MedianSeconds(int repeats, const F& f) {
  std::vector<double> s;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

// ONNX Runtime's seconds per run of the case's model, or 0 (the reason in `why`).
double OrtSeconds(const Shape& s, int repeats, std::string& why) {
  const fs::path dir = fs::path(QCONFORM_BENCH_DIR) / "accumulate" / s.c.op_type;
  fs::create_directories(dir);
  WriteCaseDirectory(dir.string(), s.c, DeclaredOutputs(s.c), {});
  const CommandResult r = TimeCommand(
      "NODE_PATH=" + ShellQuote(OnnxRuntimeBackend::ModulesDir()) + " node " +
      ShellQuote(std::string(QCONFORM_SOURCE_DIR) + "/bench/ort_kernel.js") + " " +
      ShellQuote((dir / "model.onnx").string()) + " " + std::to_string(repeats) + " " + s.feeds);
  const size_t at = r.output.find("@qconform seconds ");
  if (r.status != 0 || at == std::string::npos) {
    why = r.output.substr(0, 200);
    return 0;
  }
  return std::stod(r.output.substr(at + 18));
}

}  // namespace

void AccumulationTable(const std::function<void(const std::string&)>& line) {
  line("");
  line(
      "| accumulation, one thread | oracle (exact) | ONNX Runtime's kernel | ratio (target >= "
      "0.25x) |");
  line("|---|---|---|---|");
  for (const Shape& s : Shapes()) {
    const OracleResult plan = RunOracle(s.c);
    const int repeats = s.macs > 200'000'000 ? 5 : 20;
    double oracle = 0;
    if (const MatMulPlan* matmul = plan.plan_as<MatMulPlan>()) {
      oracle = MedianSeconds(repeats, [&] { (void)AccumulateMatMul(s.c, *matmul, false); });
    } else if (const ConvPlan* conv = plan.plan_as<ConvPlan>()) {
      oracle = MedianSeconds(repeats, [&] { (void)AccumulateConv(s.c, *conv, false); });
    }
    std::string why;
    const double ort = OrtSeconds(s, repeats, why);
    const double gmacs = static_cast<double>(s.macs) / 1e9;
    char row[256];
    if (ort > 0) {
      std::snprintf(row, sizeof row, "| %s | %.1f GMAC/s | %.1f GMAC/s | %.2fx |", s.name.c_str(),
                    gmacs / oracle, gmacs / ort, ort / oracle);
    } else {
      std::snprintf(row, sizeof row, "| %s | %.1f GMAC/s | not measured: %s | |", s.name.c_str(),
                    gmacs / oracle, why.c_str());
    }
    line(row);
  }
}

}  // namespace qconform::bench
