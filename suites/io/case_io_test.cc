// Case I/O: round trips, every way ONNX stores a tensor, named errors for bad files,
// deterministic bytes, onnx::checker on the models we write, and ONNX's own sub-byte data.
#include "onnx_io/case_io.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "onnx_io/manifest.h"
#include "onnx_io/model_builder.h"
#include "oracle/core/case_builder.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

namespace fs = std::filesystem;
using D = DataType;

class CaseIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qconform_io_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<Case> SampleCases() {
  std::vector<Case> cases;
  auto dq = [&](int64_t opset, Tensor x, Tensor s, std::optional<Tensor> zp,
                std::map<std::string, int64_t> a, std::string domain = "") {
    std::vector<std::optional<Tensor>> in = {std::move(x), std::move(s)};
    if (zp) in.push_back(std::move(zp));
    cases.push_back(MakeCase("DequantizeLinear", opset, std::move(in), a, domain,
                             "case" + std::to_string(cases.size())));
  };
  dq(10, MakeTensor(D::kUint8, {4}, {0, 3, 128, 255}), MakeScalar(D::kFloat, 2),
     MakeScalar(D::kUint8, 128), {});
  dq(13, MakeTensor(D::kInt8, {2, 3}, {-128, 0, 127, 1, 2, 3}),
     MakeTensor(D::kFloat, {3}, {1, 2, 4}), {}, {{"axis", -1}});
  dq(21, MakeTensor(D::kInt4, {1, 5}, {-8, 7, 0, 1, -1}), MakeTensor(D::kFloat16, {1, 2}, {0.5, 2}),
     MakeTensor(D::kInt4, {1, 2}, {1, -1}), {{"axis", 1}, {"block_size", 3}});
  dq(25, MakeTensor(D::kUint2, {7}, {0, 1, 2, 3, 3, 2, 1}), MakeScalar(D::kFloat8E8M0, 0.25),
     MakeScalar(D::kUint2, 1), {{"output_dtype", 16}});
  dq(23, MakeTensor(D::kFloat4E2M1, {3}, {-6, 0.5, 4}), MakeScalar(D::kBfloat16, 3), {}, {});
  dq(19, MakeTensor(D::kFloat8E5M2FNUZ, {2}, {-57344, 0.5}), MakeScalar(D::kFloat, 1), {}, {});
  dq(1, MakeTensor(D::kInt8, {2}, {1, 2}), MakeTensor(D::kFloat16, {2}, {1, 2}),
     MakeTensor(D::kInt8, {2}, {0, 1}), {{"axis", 0}}, "com.microsoft");
  dq(21, MakeTensor(D::kInt32, {}, {123456789}), MakeScalar(D::kFloat, 1), {}, {});
  // A constant scale (an initializer), as TensorRT requires.
  cases.push_back(cases[1]);
  cases.back().id = "initializer";
  cases.back().inputs[1]->is_initializer = true;
  // An absent optional input in the middle is kept in place.
  cases.push_back(MakeCase("DequantizeLinear", 21,
                           {MakeScalar(D::kInt8, 1), std::nullopt, MakeScalar(D::kInt8, 1)}, {}, "",
                           "gap"));
  return cases;
}

TEST_F(CaseIo, WriteThenReadGivesTheSameCase) {
  for (const Case& c : SampleCases()) {
    const std::string dir = Path(c.id);
    WriteCaseDirectory(dir, c, {{"y", 1, {}}}, {});
    const CaseDirectory back = ReadCaseDirectory(dir);
    ASSERT_EQ(back.data_sets.size(), 1u);
    Case got = back.data_sets[0].c;
    EXPECT_EQ(got.id, c.id);
    EXPECT_EQ(got, c) << c.id;
  }
}

TEST_F(CaseIo, SameCaseSameBytes) {
  const Case c = SampleCases()[2];
  WriteCaseDirectory(Path("a"), c, {{"y", 10, {1, 5}}},
                     {MakeTensor(D::kFloat16, {1, 5}, {1, 2, 3, 4, 5})});
  WriteCaseDirectory(Path("b"), c, {{"y", 10, {1, 5}}},
                     {MakeTensor(D::kFloat16, {1, 5}, {1, 2, 3, 4, 5})});
  for (const char* f : {"model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_1.pb",
                        "test_data_set_0/input_2.pb", "test_data_set_0/output_0.pb"}) {
    EXPECT_EQ(Bytes(Path(std::string("a/") + f)), Bytes(Path(std::string("b/") + f))) << f;
    EXPECT_FALSE(Bytes(Path(std::string("a/") + f)).empty()) << f;
  }
}

TEST_F(CaseIo, ReadsEveryTypedField) {
  struct Row {
    D type;
    std::vector<int32_t> int32_data;
    std::vector<float> float_data;
    std::vector<uint32_t> codes;
  };
  const Row rows[] = {
      {D::kInt4, {0xF1, 0x07}, {}, {0x1, 0xF, 0x7}},  // packed bytes, low nibble first
      {D::kFloat4E2M1, {0x71}, {}, {0x1, 0x7}},
      {D::kInt2, {0xB4}, {}, {0x0, 0x1, 0x3, 0x2}},
      {D::kFloat8E4M3FN, {0x7E, 0x80}, {}, {0x7E, 0x80}},  // one bit pattern per entry
      {D::kFloat16, {0x3C00, 0xFC00}, {}, {0x3C00, 0xFC00}},
      {D::kBfloat16, {0x3F80}, {}, {0x3F80}},
      {D::kInt8, {-5, 127}, {}, {0xFB, 0x7F}},  // values
      {D::kUint16, {65535}, {}, {0xFFFF}},
      {D::kInt32, {-1}, {}, {0xFFFFFFFF}},
      {D::kFloat, {}, {1.0f, -0.0f}, {0x3F800000, 0x80000000}},
  };
  for (const Row& row : rows) {
    onnx::TensorProto p;
    p.set_data_type(static_cast<int32_t>(row.type));
    p.add_dims(static_cast<int64_t>(row.codes.size()));
    for (int32_t v : row.int32_data) p.add_int32_data(v);
    for (float v : row.float_data) p.add_float_data(v);
    const Tensor t = TensorFromProto(p, "test");
    EXPECT_EQ(t.codes.ToVector(), row.codes) << ElementTypeOf(row.type).name;
    // And raw_data of the canonical writer reads back the same.
    EXPECT_EQ(TensorFromProto(TensorToProto(t, "t"), "raw").codes, t.codes)
        << ElementTypeOf(row.type).name;
  }
}

// A manifest note of any length gives its decision ids: the scan that replaced a std::regex,
// which overflowed the stack on a 31 KB note (found by fuzzing; the input is kept as
// suites/fuzz/corpus/manifest/regression-regex-stack-overflow).
TEST(Manifest, DecisionsOfALongNote) {
  ManifestEntry e;
  e.note = std::string(200000, '#') + " see docs/semantics.md#d7 and #d11, again #d7; #dx";
  EXPECT_EQ(e.decisions(), "d7,d11");
  e.note = "no decision";
  EXPECT_EQ(e.decisions(), "-");
}

TEST_F(CaseIo, BadFilesAreNamedErrors) {
  const Case c = SampleCases()[0];
  WriteCaseDirectory(Path("ok"), c, {{"y", 1, {4}}}, {});
  auto expect_error = [](const std::function<void()>& f, const std::string& words) {
    try {
      f();
      ADD_FAILURE() << "expected a CaseIoError mentioning '" << words << "'";
    } catch (const CaseIoError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  const std::string input0 = Path("ok/test_data_set_0/input_0.pb");
  const std::string good = Bytes(input0);
  WriteBytes(input0, good.substr(0, good.size() - 3));
  expect_error([&] { ReadCaseDirectory(Path("ok")); },
               "input_0.pb: not a TensorProto (truncated or corrupt)");
  onnx::TensorProto p;
  p.set_data_type(99);
  expect_error([&] { TensorFromProto(p, "f.pb"); },
               "f.pb: TensorProto.data_type: 99 is not an ONNX element type");
  p.set_data_type(1);
  p.add_dims(int64_t{1} << 40);
  p.add_dims(int64_t{1} << 40);
  expect_error([&] { TensorFromProto(p, "f.pb"); },
               "f.pb: TensorProto.dims: the element count overflows");
  onnx::TensorProto short_raw;
  short_raw.set_data_type(1);
  short_raw.add_dims(2);
  short_raw.set_raw_data(std::string(7, '\0'));
  expect_error(
      [&] { TensorFromProto(short_raw, "g.pb"); },
      "g.pb: TensorProto.raw_data of a float tensor of 2 elements holds 7 entries, expected 8");
  onnx::ModelProto two = BuildModel(c, {{"y", 1, {4}}});
  *two.mutable_graph()->add_node() = two.graph().node(0);
  fs::create_directories(Path("two"));
  WriteBytes(Path("two/model.onnx"), two.SerializeAsString());
  // Two nodes read as a graph case (docs/semantics.md#d32); both writing y is the oracle's error,
  // naming the second node.
  WriteCaseDirectory(Path("two"), c, {{"y", 1, {4}}}, {});
  WriteBytes(Path("two/model.onnx"), two.SerializeAsString());
  const CaseDirectory graph = ReadCaseDirectory(Path("two"));
  ASSERT_TRUE(graph.data_sets.at(0).c.is_graph());
  try {
    RunOracle(graph.data_sets[0].c);
    ADD_FAILURE() << "a value written twice";
  } catch (const OracleError& e) {
    EXPECT_NE(std::string(e.what()).find("writes 'y', which"), std::string::npos) << e.what();
  }
  onnx::ModelProto none = two;
  none.mutable_graph()->clear_node();
  WriteBytes(Path("two/model.onnx"), none.SerializeAsString());
  expect_error([&] { ReadCaseDirectory(Path("two")); }, "the model has no node");
  WriteBytes(Path("two/model.onnx"), "not a model");
  expect_error([&] { ReadCaseDirectory(Path("two")); }, "model.onnx: not a ModelProto");
}

TEST_F(CaseIo, ModelsPassTheCheckerWhereItKnowsTheOpset) {
  int checked = 0;
  for (const Case& c : SampleCases()) {
    if (!c.domain.empty() || c.opset > 17 || c.id == "gap") continue;
    const std::string message = CheckModel(BuildModel(c, {{"y", 1, c.inputs[0]->shape}}));
    EXPECT_EQ(message, "") << c.id;
    ++checked;
  }
  EXPECT_GE(checked, 2);
  // And the checker does catch a broken model.
  onnx::ModelProto broken = BuildModel(SampleCases()[0], {{"y", 1, {4}}});
  broken.mutable_graph()->mutable_node(0)->set_op_type("DequantizeLinearr");
  EXPECT_NE(CheckModel(broken), "");
}

// ONNX's own sub-byte and float8 cases (int32_data packing, a zero point of shape (1) beside a
// scalar scale): every element of their expected output must be admissible, which checks our
// reading of their packing against theirs. They are an optional external input
// (-DQCONFORM_ONNX_NODE_TESTS=DIR); without it the test is skipped and says how to provide them.
TEST_F(CaseIo, OnnxSubByteDataReadsLikeOnnxWritesIt) {
  const fs::path root = QCONFORM_ONNX_NODE_TESTS;
  if (root.empty() || !fs::is_directory(root)) {
    GTEST_SKIP() << "ONNX's upstream node tests are not configured: cmake "
                    "-DQCONFORM_ONNX_NODE_TESTS=DIR (onnx/backend/test/data/node of ONNX 1.18+)";
  }
  int checked = 0;
  for (const char* name :
       {"test_dequantizelinear_int4", "test_dequantizelinear_uint4", "test_dequantizelinear_int2",
        "test_dequantizelinear_uint2", "test_dequantizelinear_float4e2m1",
        "test_dequantizelinear_e4m3fn_zero_point"}) {
    const CaseDirectory dir = ReadCaseDirectory((root / name).string());
    const DataSet& data = dir.data_sets.at(0);
    ASSERT_EQ(data.c.inputs.at(2)->shape, std::vector<int64_t>{1}) << name;
    const OracleResult oracle = RunOracle(data.c);
    ASSERT_FALSE(oracle.must_reject()) << name;
    BackendResult observed;
    observed.outputs.push_back(data.outputs[0]);
    const CaseResult j = JudgeCase(data.c, oracle, observed, {});
    EXPECT_EQ(j.kind, Kind::kConformant) << name << ": " << j.detail;
    checked += static_cast<int>(data.outputs[0].codes.size());
  }
  EXPECT_GT(checked, 20);
}

}  // namespace
}  // namespace qconform
