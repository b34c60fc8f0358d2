// Graph cases on disk (docs/semantics.md#d32): a golden QDQ group reads back as the graph the
// catalogue wrote (its nodes, named inputs, initializers), its model passes ONNX's checker, and
// the catalogue's boundary classes hold: exact ties admit one code, straddles two, and the
// stored range is the oracle's. A zero point added before rounding is a wrong value.
#include <gtest/gtest.h>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <filesystem>

#include "generators/golden_catalogue.h"
#include "onnx_io/case_io.h"
#include "onnx_io/model_builder.h"
#include "onnx_io/tensor_proto.h"
#include "oracle/core/index_tensor.h"
#include "oracle/semantics/graph/graph_value.h"
#include "oracle/semantics/oracle.h"
#include "verdict/judge.h"

namespace qconform {
namespace {

const std::string kGolden = QCONFORM_GOLDEN_DIR;

std::vector<GoldenCase> GraphCatalogue() {
  std::vector<GoldenCase> all = GraphBoundaryCatalogue();
  for (GoldenCase& g : GraphOperatorCatalogue()) all.push_back(std::move(g));
  return all;
}

// Every golden graph case (its int64 and bool constants included) reads back as the graph
// written, and its model passes ONNX's checker.
TEST(GraphCaseIo, EveryGoldenGroupReadsBackAsTheGraphWritten) {
  const std::vector<GoldenCase> catalogue = GraphCatalogue();
  EXPECT_GE(catalogue.size(), 41u);
  for (const GoldenCase& g : catalogue) {
    const Case& written = g.c;
    SCOPED_TRACE(written.id);
    const CaseDirectory dir = ReadCaseDirectory(kGolden + "/" + written.id);
    ASSERT_EQ(dir.data_sets.size(), 1u);
    const Case& read = dir.data_sets[0].c;
    EXPECT_TRUE(read.is_graph());
    EXPECT_EQ(read.graph, written.graph);
    EXPECT_EQ(read.output_names, written.output_names);
    // The graph inputs first (fed by input_K.pb), then the initializers: the same tensors.
    ASSERT_EQ(read.inputs.size(), written.inputs.size());
    for (size_t k = 0; k < written.inputs.size(); ++k) {
      const auto at =
          std::find(read.input_names.begin(), read.input_names.end(), written.input_names[k]);
      ASSERT_NE(at, read.input_names.end()) << written.input_names[k];
      EXPECT_EQ(read.inputs[static_cast<size_t>(at - read.input_names.begin())], written.inputs[k])
          << written.input_names[k];
    }
    onnx::ModelProto model = BuildModel(read, DeclaredOutputs(read));
    EXPECT_NO_THROW(onnx::checker::check_model(model));
  }
}

// Every element of a straddle case admits exactly two codes, every element of a ties case one;
// the stored range/ files are the oracle's (qconform check would name them otherwise).
TEST(GraphCaseIo, TheBoundaryClassesHold) {
  for (const char* op : {"add", "sub", "mul", "div"}) {
    const std::string straddle = std::string("qdq13-") + op + "-straddle-uint8";
    const CaseDirectory s = ReadCaseDirectory(kGolden + "/" + straddle);
    const OracleResult r = RunOracle(s.data_sets[0].c);
    ASSERT_EQ(r.outputs.size(), 1u) << straddle;
    const OutputEvaluation& y = r.outputs[0];
    ASSERT_TRUE(y.has_range()) << straddle;
    ASSERT_TRUE(s.data_sets[0].ranges[0]) << straddle << ": range/ files";
    bool some_two = false;
    for (size_t i = 0; i < y.exact.size(); ++i) {
      const int64_t width = RangeWidth(ElementTypeOf(DataType::kUint8), y.range(i));
      EXPECT_LE(width, 1) << straddle << " element " << i;
      some_two = some_two || width == 1;
    }
    EXPECT_TRUE(some_two) << straddle;
    const std::string ties = std::string("qdq13-") + op + "-ties-uint8";
    const OracleResult t = RunOracle(ReadCaseDirectory(kGolden + "/" + ties).data_sets[0].c);
    ASSERT_EQ(t.outputs.size(), 1u) << ties;
    EXPECT_FALSE(t.outputs[0].has_range()) << ties << ": B = 0 at dyadic ties";
  }
}

// The ties case against a backend that adds the zero point before rounding: wrong values.
TEST(GraphCaseIo, AZeroPointBeforeRoundingIsAWrongValue) {
  const CaseDirectory d = ReadCaseDirectory(kGolden + "/qdq13-add-ties-uint8");
  const Case& c = d.data_sets[0].c;
  const OracleResult r = RunOracle(c);
  const OutputEvaluation& y = r.outputs.at(0);
  Tensor shifted{y.data_type, y.shape, y.exact, false};
  size_t changed = 0;
  // y = round((a + b) * 1/2 / 1/2 ...): recompute each element as round(q + zp) instead of
  // round(q) + zp: at a tie q = k + 1/2 with an odd zero point they differ by one.
  for (size_t i = 0; i < y.exact.size(); ++i) {
    const uint32_t exact = y.exact[i];
    // round(q) + 1 is even-k + 1 (odd); round(q + 1) = round(k + 3/2) is the even neighbour.
    const uint32_t zero_point_first =
        (exact % 2 == 1) ? exact + ((exact / 2) % 2 == 0 ? 1 : -1) : exact;
    shifted.codes.set(i, zero_point_first);
    changed += zero_point_first != exact;
  }
  ASSERT_GT(changed, 0u);
  const CaseResult judged = JudgeCase(c, r, BackendResult{std::nullopt, {shifted}, {}}, {});
  EXPECT_EQ(judged.kind, Kind::kWrongOutputs) << judged.detail;
  EXPECT_EQ(judged.features.op, "QDQ Add");
}

// int64 and bool constants: read from raw_data and from int64_data/int32_data, written as
// raw_data; a value beyond int32's range leaves a type and a shape (an operator's type rule
// still refuses it) and a graph naming it is an error, never a wrong index.
TEST(GraphCaseIo, IndexTensorsRoundTripAndRefuseWhatTheyCannotCarry) {
  const Tensor axes = MakeIndexTensor(DataType::kInt64, {3}, {0, -1, 2147483647});
  EXPECT_EQ(TensorFromProto(TensorToProto(axes, "axes"), "t"), axes);
  onnx::TensorProto entries;
  entries.set_data_type(onnx::TensorProto::INT64);
  entries.add_dims(2);
  entries.add_int64_data(-5);
  entries.add_int64_data(7);
  EXPECT_EQ(IndexValues(TensorFromProto(entries, "t")), (std::vector<int64_t>{-5, 7}));
  onnx::TensorProto flags;
  flags.set_data_type(onnx::TensorProto::BOOL);
  flags.add_dims(2);
  flags.add_int32_data(1);
  flags.add_int32_data(0);
  const Tensor condition = TensorFromProto(flags, "t");
  EXPECT_EQ(IndexValues(condition), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(TensorFromProto(TensorToProto(condition, "c"), "t"), condition);
  onnx::TensorProto wide = entries;
  wide.set_int64_data(1, int64_t{1} << 33);
  const Tensor kept = TensorFromProto(wide, "t");
  EXPECT_TRUE(kept.codes.empty());
  EXPECT_THROW(ValueOf(kept), std::invalid_argument);
  EXPECT_THROW(MakeIndexTensor(DataType::kBool, {1}, {2}), std::invalid_argument);
}

}  // namespace
}  // namespace qconform
