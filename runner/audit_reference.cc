#include "runner/audit_reference.h"

#include <filesystem>

#include "adapters/exec/child_process.h"
#include "adapters/onnxruntime/onnxruntime_backend.h"
#include "onnx_io/model_file.h"
#include "onnx_io/npy.h"
#include "onnx_io/tensor_proto.h"
#include "oracle/core/codec.h"
#include "oracle/core/prng.h"

namespace qconform::runner {
namespace fs = std::filesystem;
namespace {

// "int8 (1,3,224,224)" or "float (N,3,224,224)".
std::string DeclaredString(const DeclaredInput& d) {
  std::string s = DataTypeName(d.data_type) + " (";
  for (size_t k = 0; k < d.dims.size(); ++k) {
    s += (k ? "," : "") + (d.dims[k] >= 0 ? std::to_string(d.dims[k])
                                          : (d.dim_params[k].empty() ? "?" : d.dim_params[k]));
  }
  return s + ")";
}

void CheckDeclared(const DeclaredInput& d, const Tensor& t, const std::string& file) {
  bool fits = t.data_type == d.data_type && t.shape.size() == d.dims.size();
  for (size_t k = 0; fits && k < d.dims.size(); ++k)
    fits = d.dims[k] < 0 || d.dims[k] == t.shape[k];
  if (!fits) {
    throw CaseIoError(file + ": input '" + d.name + "' is " + DataTypeName(t.data_type) + " " +
                      ShapeString(t.shape) + ", the model declares " + DeclaredString(d));
  }
}

uint32_t RandomCode(const ElementType& type, Prng& prng) {
  if (type.is_integer()) {
    const int64_t lo = IntegerMin(type), hi = IntegerMax(type);
    const int64_t v = lo + static_cast<int64_t>(prng.Below(static_cast<uint64_t>(hi - lo) + 1));
    return static_cast<uint32_t>(v) & type.code_mask();
  }
  const double unit = static_cast<double>(prng.Next() >> 11) * 0x1p-53;  // [0, 1)
  const float v = static_cast<float>(2 * unit - 1);
  return *Encode(type, Exact::FromDouble(v), Saturation::kSaturate);
}

}  // namespace

NamedTensors ReadAuditInputs(const ModelFile& model, const std::string& dir) {
  NamedTensors out;
  for (const DeclaredInput& d : model.inputs()) {
    const fs::path pb = fs::path(dir) / (d.name + ".pb"), npy = fs::path(dir) / (d.name + ".npy");
    Tensor t;
    std::string file;
    if (fs::exists(pb)) {
      file = pb.string();
      t = ReadTensorFile(file);
    } else if (fs::exists(npy)) {
      file = npy.string();
      t = ReadNpyFile(file);
    } else {
      throw CaseIoError(dir + ": no file for the model's input '" + d.name + "' (" + d.name +
                        ".pb or " + d.name + ".npy; it is " + DeclaredString(d) + ")");
    }
    CheckDeclared(d, t, file);
    out.emplace(d.name, std::move(t));
  }
  return out;
}

NamedTensors RandomAuditInputs(const ModelFile& model, uint64_t seed,
                               const std::map<std::string, int64_t>& dims,
                               std::vector<std::string>& resolved) {
  NamedTensors out;
  Prng prng(seed);
  for (const DeclaredInput& d : model.inputs()) {
    const ElementType* type = FindElementType(d.data_type);
    if (type == nullptr || type->bits > 32) {
      throw CaseIoError(model.path() + ": input '" + d.name + "' is " + DeclaredString(d) +
                        ": --random makes numbers of the quantization types only; give it "
                        "with --inputs DIR");
    }
    Tensor t;
    t.data_type = d.data_type;
    for (size_t k = 0; k < d.dims.size(); ++k) {
      int64_t v = d.dims[k];
      if (v < 0) {
        const auto it = dims.find(d.dim_params[k]);
        v = it == dims.end() ? 1 : it->second;
        resolved.push_back(d.name + "[" + std::to_string(k) + "] " +
                           (d.dim_params[k].empty() ? "?" : d.dim_params[k]) + " = " +
                           std::to_string(v));
      }
      t.shape.push_back(v);
    }
    t.codes = Codes(type->bits, static_cast<size_t>(t.element_count()));
    for (size_t i = 0; i < t.codes.size(); ++i) t.codes.set(i, RandomCode(*type, prng));
    out.emplace(d.name, std::move(t));
  }
  return out;
}

NamedTensors CaptureValues(const ModelFile& model, const NamedTensors& inputs,
                           const std::vector<std::string>& names, const std::string& reference,
                           const std::string& work_dir, double timeout_seconds) {
  const fs::path dir = fs::path(work_dir) / "capture", out = fs::path(work_dir) / "captured";
  fs::remove_all(out);
  WriteCaptureModel(model, names, dir.string());
  fs::create_directories(dir / "test_data_set_0");
  for (size_t k = 0; k < model.inputs().size(); ++k) {
    const DeclaredInput& d = model.inputs()[k];
    const auto it = inputs.find(d.name);
    if (it == inputs.end()) throw CaseIoError("no value for the model's input '" + d.name + "'");
    WriteTensorFile((dir / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb")).string(),
                    it->second, d.name);
  }
  const std::string command =
      OnnxRuntimeBackend::CaptureCommand(reference, fs::absolute(dir), fs::absolute(out));
  if (command.empty()) {
    throw std::invalid_argument("--reference " + reference +
                                ": the reference must be ONNX Runtime (onnxruntime, "
                                "onnxruntime-web, with an optional :LEVEL)");
  }
  ChildProcess child;
  if (auto why = child.Start(command)) throw std::runtime_error(reference + ": " + *why);
  const ChildProcess::Line line = child.ReadLine("@qconform ", timeout_seconds, reference);
  if (line.status != ChildProcess::Wait::kDone) {
    const std::string how = line.status == ChildProcess::Wait::kTimeout
                                ? "no answer in " + std::to_string(timeout_seconds) + " s"
                                : "it " + child.ExitDescription();
    child.Kill();
    throw std::runtime_error("the reference run on " + reference + " failed: " + how);
  }
  child.Quit("");
  if (line.text.rfind("ok ", 0) != 0) {
    // "error 0 KIND MESSAGE": the runtime's own words, after its kind.
    std::string words = line.text;
    if (words.rfind("error 0 ", 0) == 0) {
      words = words.substr(8);
      const size_t space = words.find(' ');
      if (space != std::string::npos) words = words.substr(0, space) + ":" + words.substr(space);
    }
    throw std::runtime_error("the reference run on " + reference + " failed: " + words);
  }
  // The outputs are the model's own, then the added names, in order.
  std::vector<std::string> order = model.output_names();
  for (const std::string& n : names) {
    if (std::find(order.begin(), order.end(), n) == order.end()) order.push_back(n);
  }
  NamedTensors captured;
  for (size_t k = 0; k < order.size(); ++k) {
    const fs::path file = out / ("output_" + std::to_string(k) + ".pb");
    if (!fs::exists(file)) continue;
    if (std::find(names.begin(), names.end(), order[k]) == names.end()) continue;
    captured.emplace(order[k], ReadTensorFile(file.string()));
  }
  return captured;
}

}  // namespace qconform::runner
