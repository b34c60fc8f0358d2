// The adapters: the exec protocol against small scripted backends that misbehave in every way
// the protocol names (no handshake, stray output, malformed answers, missing outputs, crashes,
// hangs), the plugin host with the example plugin and its broken twin, the oracle backend, and
// ONNX Runtime on a few cases. Each failure must fail only its own case.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "adapters/backend.h"
#include "adapters/plugin/qconform_plugin.h"
#include "onnx_io/case_io.h"
#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace qconform {
namespace {
namespace fs = std::filesystem;
using D = DataType;

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = fs::temp_directory_path().string() + "/qconform-adapters-XXXXXX";
    path_ = mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  // Writes an executable shell script and returns the command running it.
  std::string Script(const std::string& name, const std::string& body) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file) << "#!/bin/sh\n" << body;
    fs::permissions(file, fs::perms::owner_all);
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Case Int8Case(const std::string& id = "int8") {
  return MakeCase("DequantizeLinear", 21,
                  {MakeTensor(D::kInt8, {2, 3}, {-128, -1, 0, 1, 2, 127}),
                   MakeScalar(D::kFloat, 0.5), MakeScalar(D::kInt8, 1)},
                  {}, "", id);
}

Case CaseOfType(D type, const std::string& id) {
  return MakeCase("DequantizeLinear", 21,
                  {MakeTensor(type, {4}, {0, 1, 2, 3}), MakeScalar(D::kFloat, 0.25)}, {}, "", id);
}

BackendResult RunWith(Backend& b, const Case& c) {
  return b.Run(c);
}

std::unique_ptr<Backend> Exec(const std::string& command, double timeout = 5) {
  BackendOptions options;
  options.timeout_seconds = timeout;
  return MakeBackend("exec:" + command, options);
}

constexpr const char* kHello = "echo '@qconform hello 1 fake 1.0 scripted test backend'\n";

TEST(ExecBackend, HandshakeGivesNameVersionAndCapabilities) {
  ScratchDir dir;
  auto b = Exec(dir.Script("b", std::string(kHello) + "while read r c o; do :; done\n"));
  ASSERT_EQ(b->Open(), std::nullopt);
  EXPECT_EQ(b->name(), "fake");
  EXPECT_EQ(b->version(), "1.0");
  EXPECT_EQ(b->capabilities(), "scripted test backend");
}

TEST(ExecBackend, NoHandshakeIsACrashNamingTheCommand) {
  ScratchDir dir;
  auto b = Exec(dir.Script("b", "echo hello there; exit 4\n"));
  const BackendResult r = RunWith(*b, Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCrash);
  EXPECT_NE(r.error->message.find("exited with status 4 before the handshake"), std::string::npos)
      << r.error->message;
}

TEST(ExecBackend, WrongHandshakeIsRefused) {
  ScratchDir dir;
  auto b = Exec(dir.Script("b", "echo '@qconform hello 4 fake 1.0'; sleep 5\n"));
  const std::optional<std::string> e = b->Open();
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("did not greet"), std::string::npos) << *e;
  EXPECT_NE(e->find("P one of 1 to 3"), std::string::npos) << *e;
}

TEST(ExecBackend, StrayOutputNeverDecides) {
  ScratchDir dir;
  // Junk before and after the handshake, and a junk line that looks like an answer's words.
  auto b =
      Exec(dir.Script("b", "echo 'loading...'\n" + std::string(kHello) +
                               "while read r c o; do echo ok; echo 'qconform ok';"
                               " echo '@qconform error rejected-at-run scale is wrong'; done\n"));
  const BackendResult r = RunWith(*b, Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtRun);
  EXPECT_EQ(r.error->message, "scale is wrong");
}

TEST(ExecBackend, MalformedAnswersAreProtocolErrors) {
  ScratchDir dir;
  auto b = Exec(
      dir.Script("b", std::string(kHello) + "while read r c o; do echo '@qconform maybe'; done\n"));
  BackendResult r = RunWith(*b, Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kProtocolError);
  auto unknown = Exec(dir.Script(
      "c", std::string(kHello) + "while read r c o; do echo '@qconform error oops x'; done\n"));
  r = RunWith(*unknown, Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kProtocolError);
  EXPECT_NE(r.error->message.find("unknown error kind 'oops'"), std::string::npos);
}

TEST(ExecBackend, OkWithoutOutputsIsAProtocolError) {
  ScratchDir dir;
  auto b = Exec(
      dir.Script("b", std::string(kHello) + "while read r c o; do echo '@qconform ok'; done\n"));
  const BackendResult r = RunWith(*b, Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kProtocolError);
  EXPECT_NE(r.error->message.find("wrote no output_0.pb (y)"), std::string::npos)
      << r.error->message;
}

TEST(ExecBackend, ReadsTheOutputFilesTheBackendWrites) {
  ScratchDir dir;
  const Case c = Int8Case();
  const OracleResult oracle = RunOracle(c);
  ASSERT_EQ(oracle.outputs.size(), 1u);
  const Tensor y{oracle.outputs[0].data_type, oracle.outputs[0].shape, oracle.outputs[0].exact,
                 false};
  const std::string answer = dir.path() + "/answer.pb";
  WriteTensorFile(answer, y, "y");
  auto b = Exec(dir.Script("b", std::string(kHello) + "while read r c o; do cp " + answer +
                                    " $o/output_0.pb; echo '@qconform ok'; done\n"));
  BackendResult r = RunWith(*b, c);
  ASSERT_FALSE(r.error) << r.error->message;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0], y);
  // Garbage in the file is the backend's protocol error, not a crash of qconform.
  auto garbage =
      Exec(dir.Script("c", std::string(kHello) + "while read r c o; do printf '\\377\\377' > "
                                                 "$o/output_0.pb; echo '@qconform ok'; done\n"));
  r = RunWith(*garbage, c);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kProtocolError);
  EXPECT_NE(r.error->message.find("unreadable output"), std::string::npos) << r.error->message;
}

TEST(ExecBackend, CrashFailsOnlyItsCaseAndTheBackendRestarts) {
  ScratchDir dir;
  const std::string marker = dir.path() + "/crashed";
  // The first process dies on its first case; the restarted one answers.
  auto b = Exec(dir.Script("b", std::string(kHello) +
                                    "while read r c o; do\n"
                                    "  if [ ! -e " +
                                    marker + " ]; then touch " + marker +
                                    "; kill -SEGV $$; fi\n"
                                    "  echo '@qconform error rejected-at-load second life'\n"
                                    "done\n"));
  BackendResult r = RunWith(*b, Int8Case("first"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCrash);
  EXPECT_NE(r.error->message.find("signal 11"), std::string::npos) << r.error->message;
  r = RunWith(*b, Int8Case("second"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtLoad);
  EXPECT_EQ(r.error->message, "second life");
}

// Whether a process has ended: no such process, or a zombie (killed, and not yet reaped by
// whoever adopted it: under load, or under a reaper that waits, that takes a while; kill(pid, 0)
// still succeeds on it).
bool Ended(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t name_end = line.rfind(')');  // "pid (name) state ...", the name may hold spaces
  return name_end != std::string::npos && name_end + 2 < line.size() && line[name_end + 2] == 'Z';
}

TEST(ExecBackend, HangIsATimeoutAndTheWholeProcessGroupIsKilled) {
  ScratchDir dir;
  const std::string pid_file = dir.path() + "/sleeper.pid";
  const std::string marker = dir.path() + "/hung";
  auto b = Exec(dir.Script("b", std::string(kHello) +
                                    "while read r c o; do\n"
                                    "  if [ ! -e " +
                                    marker + " ]; then touch " + marker +
                                    "; sleep 300 & echo $! > " + pid_file +
                                    "; wait; fi\n"
                                    "  echo '@qconform error rejected-at-load awake'\n"
                                    "done\n"),
                /*timeout=*/0.5);
  const auto start = std::chrono::steady_clock::now();
  BackendResult r = RunWith(*b, Int8Case("hangs"));
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_LT(took, 5.0);
  // The sleeping grandchild went with its group.
  pid_t sleeper = 0;
  std::ifstream(pid_file) >> sleeper;
  ASSERT_GT(sleeper, 0);
  bool gone = false;
  for (int i = 0; i < 250 && !gone; ++i) {
    gone = Ended(sleeper);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(gone) << "pid " << sleeper << " survived the timeout";
  r = RunWith(*b, Int8Case("after"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "awake");
}

TEST(ExecBackend, UnknownBackendSpellingIsAnError) {
  EXPECT_THROW(MakeBackend("tensorrt", {}), std::invalid_argument);
  EXPECT_THROW(MakeBackend("exec:", {}), std::invalid_argument);
}

TEST(OracleBackend, ComputesValidAndRejectsInvalidCasesWithTheRule) {
  auto b = MakeBackend("oracle", {});
  BackendResult r = RunWith(*b, Int8Case());
  ASSERT_FALSE(r.error);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].shape, (std::vector<int64_t>{2, 3}));
  Case bad = Int8Case();
  bad.inputs[2] = MakeScalar(D::kUint8, 1);  // zero point type differs from x
  r = RunWith(*b, bad);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtLoad);
  EXPECT_EQ(r.error->message.rfind("dq.type.x_zero_point:", 0), 0u) << r.error->message;
}

// In a run the oracle backend answers from the evaluation the run made (one evaluation per
// case): a result it is given is the answer, and a case without one is evaluated.
TEST(OracleBackend, AnswersFromTheRunsEvaluationAndEvaluatesWhatHasNone) {
  auto b = MakeBackend("oracle", {});
  const Case c = Int8Case();
  OracleResult given = RunOracle(c);
  ASSERT_EQ(given.outputs.size(), 1u);
  const uint32_t was = given.outputs[0].exact[0];
  given.outputs[0].exact.set(0, was ^ 1u);  // a result the oracle would never give
  const std::vector<BackendResult> r = b->RunEvaluatedBatch({c, c}, {&given, nullptr});
  ASSERT_EQ(r.size(), 2u);
  ASSERT_FALSE(r[0].error);
  EXPECT_EQ(r[0].outputs.at(0).codes[0], was ^ 1u);
  ASSERT_FALSE(r[1].error);
  EXPECT_EQ(r[1].outputs.at(0).codes[0], was);
  Case bad = c;
  bad.inputs[2] = MakeScalar(D::kUint8, 1);
  const OracleResult rejected = RunOracle(bad);
  const std::vector<BackendResult> refused = b->RunEvaluatedBatch({bad}, {&rejected});
  ASSERT_TRUE(refused.at(0).error);
  EXPECT_EQ(refused[0].error->message.rfind("dq.type.x_zero_point:", 0), 0u);
}

TEST(PluginBackend, ExamplePluginComputesLikeAFloat32Kernel) {
  auto b = MakeBackend("plugin:example", {});
  ASSERT_EQ(b->Open(), std::nullopt);
  EXPECT_EQ(b->name(), "example-f32");
  const Case c = Int8Case();
  const BackendResult r = RunWith(*b, c);
  ASSERT_FALSE(r.error) << r.error->message;
  const OracleResult oracle = RunOracle(c);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].codes, oracle.outputs[0].exact);
  EXPECT_EQ(r.outputs[0].shape, oracle.outputs[0].shape);
  // What it does not implement it says so, as unsupported.
  Case f16 = c;
  f16.inputs[1] = MakeScalar(D::kFloat16, 0.5);
  const BackendResult u = RunWith(*b, f16);
  ASSERT_TRUE(u.error);
  EXPECT_EQ(u.error->kind, ErrorKind::kUnsupported);
}

TEST(PluginBackend, BrokenPluginFailsOnlyItsOwnCases) {
  BackendOptions options;
  options.timeout_seconds = 1;
  auto b = MakeBackend(std::string("plugin:") + QCONFORM_BROKEN_PLUGIN, options);
  const BackendResult ok1 = RunWith(*b, CaseOfType(D::kInt8, "int8"));
  ASSERT_FALSE(ok1.error) << ok1.error->message;
  const BackendResult crash = RunWith(*b, CaseOfType(D::kInt16, "int16"));
  ASSERT_TRUE(crash.error);
  EXPECT_EQ(crash.error->kind, ErrorKind::kCrash) << crash.error->message;
  const BackendResult hang = RunWith(*b, CaseOfType(D::kUint16, "uint16"));
  ASSERT_TRUE(hang.error);
  EXPECT_EQ(hang.error->kind, ErrorKind::kTimeout) << hang.error->message;
  const BackendResult shape = RunWith(*b, CaseOfType(D::kInt32, "int32"));
  ASSERT_FALSE(shape.error);
  EXPECT_EQ(shape.outputs.at(0).shape, (std::vector<int64_t>{4, 1}));  // the comparator's job
  const BackendResult ok2 = RunWith(*b, CaseOfType(D::kUint8, "uint8"));
  ASSERT_FALSE(ok2.error) << ok2.error->message;
  EXPECT_EQ(ok2.outputs.at(0).codes, RunOracle(CaseOfType(D::kUint8, "u")).outputs[0].exact);
}

TEST(PluginBackend, MissingLibraryIsACrashWithTheLoaderMessage) {
  const BackendResult r =
      RunWith(*MakeBackend("plugin:/nonexistent/libnothing.so", {}), Int8Case());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCrash);
  EXPECT_NE(r.error->message.find("before the handshake"), std::string::npos);
}

// A batch runs as one model holding every case's node; its results must be the case-by-case
// ones, also when a case in it is refused (then each case runs alone) or cannot be carried.
TEST(OnnxRuntimeBackend, BatchesGiveTheSameResultsAsCaseByCase) {
  auto b = MakeBackend("onnxruntime", {});
  ASSERT_EQ(b->Open(), std::nullopt);
  std::vector<Case> all;
  for (int k = 0; k < 6; ++k) {
    all.push_back(MakeCase("DequantizeLinear", 21,
                           {MakeTensor(D::kInt8, {2, 3}, {-128, -1, 0, 1, 7, 127}),
                            MakeTensor(D::kFloat, {3}, {0.5, 0.25 * (k + 1), 3}),
                            MakeTensor(D::kInt8, {3}, {1, 0, static_cast<double>(-k)})},
                           {{"axis", 1}}, "", "batch" + std::to_string(k)));
  }
  all.push_back(MakeCase("DequantizeLinear", 21,
                         {MakeTensor(D::kFloat8E4M3FN, {2}, {-448, 1}), MakeScalar(D::kFloat, 2)},
                         {}, "", "f8"));  // x becomes an initializer
  const std::vector<Case> valid = all;
  all.push_back(MakeCase("DequantizeLinear", 21,
                         {MakeTensor(D::kInt8, {2}, {1, 2}), MakeScalar(D::kFloat, 2)},
                         {{"output_dtype", 1}}, "", "refused"));  // no output_dtype in 21
  all.push_back(MakeCase("DequantizeLinear", 21,
                         {MakeTensor(D::kInt8, {2}, {1, 2}), MakeScalar(D::kBfloat16, 2)}, {}, "",
                         "bf16"));  // unsupported by the binding
  for (const std::vector<Case>* cases : {&valid, static_cast<const std::vector<Case>*>(&all)}) {
    const std::vector<BackendResult> batched = b->RunBatch(*cases);
    ASSERT_EQ(batched.size(), cases->size());
    for (size_t i = 0; i < cases->size(); ++i) {
      const BackendResult alone = b->Run((*cases)[i]);
      SCOPED_TRACE((*cases)[i].id);
      ASSERT_EQ(batched[i].error.has_value(), alone.error.has_value());
      if (alone.error) {
        EXPECT_EQ(batched[i].error->kind, alone.error->kind);
        continue;
      }
      ASSERT_EQ(batched[i].outputs.size(), 1u);
      EXPECT_EQ(batched[i].outputs[0].codes, alone.outputs.at(0).codes);
      EXPECT_EQ(batched[i].outputs[0].codes, RunOracle((*cases)[i]).outputs[0].exact);
    }
  }
}

TEST(OnnxRuntimeBackend, RunsCasesAndCarriesWhatTheBindingCannotThroughACast) {
  auto b = MakeBackend("onnxruntime", {});
  ASSERT_EQ(b->Open(), std::nullopt);
  EXPECT_EQ(b->name(), "onnxruntime");
  EXPECT_EQ(b->version(), "1.30.0");
  const Case c = Int8Case();
  BackendResult r = RunWith(*b, c);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.outputs.at(0).codes, RunOracle(c).outputs[0].exact);
  // float8 x cannot be fed through the binding: the adapter makes it an initializer.
  const Case f8 = MakeCase(
      "DequantizeLinear", 21,
      {MakeTensor(D::kFloat8E4M3FN, {3}, {-448, 0.5, 1}), MakeScalar(D::kFloat, 2)}, {}, "", "f8");
  EXPECT_TRUE(b->Adapt(f8).inputs[0]->is_initializer);
  r = RunWith(*b, f8);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.outputs.at(0).codes, RunOracle(f8).outputs[0].exact);
  // Outputs the binding cannot carry (int4, float8) come back through an appended Cast, declared
  // as widened; narrowed back, they are the exact results.
  for (const D y_type : {D::kInt4, D::kFloat8E4M3FN}) {
    const Case q = MakeCase("QuantizeLinear", 21,
                            {MakeTensor(D::kFloat, {4}, {-3, 0.5, 1, 7}), MakeScalar(D::kFloat, 1),
                             MakeScalar(y_type, 0)},
                            {}, "", "q");
    r = RunWith(*b, q);
    ASSERT_FALSE(r.error) << r.error->message;
    ASSERT_EQ(r.widened.size(), 1u);
    EXPECT_EQ(r.widened[0].original_type, static_cast<int32_t>(y_type));
    const CaseResult judged = JudgeCase(q, r, {});
    EXPECT_EQ(judged.kind, Kind::kConformant) << judged.detail;
    EXPECT_NE(judged.widened.find("carried as"), std::string::npos);
  }
  // A bfloat16 output is carried too, so what shows is ORT's own failure on it (1.30's
  // DequantizeLinear-23 kernel cannot write bfloat16 from a float x_scale), not a harness limit.
  const Case bf16 = MakeCase("DequantizeLinear", 23,
                             {MakeTensor(D::kInt8, {2}, {1, 2}), MakeScalar(D::kFloat, 2)},
                             {{"output_dtype", static_cast<int64_t>(D::kBfloat16)}}, "", "bf16");
  r = RunWith(*b, bf16);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtRun) << r.error->message;
  // And a refusal is a refusal, with ORT's own words.
  Case bad = c;
  bad.inputs[1] = MakeTensor(D::kFloat, {5}, {1, 1, 1, 1, 1});  // per-axis length 5 != 3
  bad.attributes["axis"] = Attribute::Int(1);
  r = RunWith(*b, bad);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kRejectedAtRun) << r.error->message;
}

}  // namespace
}  // namespace qconform

namespace qconform {
namespace {

// The plugin ABI names the ONNX data_type numbers for C plugins; they must be the registry's.
TEST(PluginAbi, DataTypeConstantsAreTheRegistrysNumbers) {
  const std::pair<const char*, int32_t> abi[] = {
      {"float", QCONFORM_FLOAT},
      {"uint8", QCONFORM_UINT8},
      {"int8", QCONFORM_INT8},
      {"uint16", QCONFORM_UINT16},
      {"int16", QCONFORM_INT16},
      {"int32", QCONFORM_INT32},
      {"float16", QCONFORM_FLOAT16},
      {"bfloat16", QCONFORM_BFLOAT16},
      {"float8e4m3fn", QCONFORM_FLOAT8E4M3FN},
      {"float8e4m3fnuz", QCONFORM_FLOAT8E4M3FNUZ},
      {"float8e5m2", QCONFORM_FLOAT8E5M2},
      {"float8e5m2fnuz", QCONFORM_FLOAT8E5M2FNUZ},
      {"uint4", QCONFORM_UINT4},
      {"int4", QCONFORM_INT4},
      {"float4e2m1", QCONFORM_FLOAT4E2M1},
      {"float8e8m0", QCONFORM_FLOAT8E8M0},
      {"uint2", QCONFORM_UINT2},
      {"int2", QCONFORM_INT2},
  };
  EXPECT_EQ(std::size(abi), AllElementTypes().size()) << "a registry type the ABI does not name";
  // The index types (oracle/core/index_tensor.h), inputs only: QLinearWhere's bool condition.
  EXPECT_EQ(QCONFORM_INT64, static_cast<int32_t>(DataType::kInt64));
  EXPECT_EQ(QCONFORM_BOOL, static_cast<int32_t>(DataType::kBool));
  for (const auto& [name, number] : abi) {
    const ElementType* t = FindElementTypeByName(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(static_cast<int32_t>(t->id), number) << name;
  }
  EXPECT_EQ(QCONFORM_UNDEFINED, static_cast<int32_t>(DataType::kUndefined));
}

}  // namespace
}  // namespace qconform
