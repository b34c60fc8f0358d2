// Properties of the com.microsoft QLinear groups' oracle over generated cases (RapidCheck,
// shrinking, reproducers as in dequantize_properties_test.cc): the elementwise groups evaluated
// once per distinct tuple of codes equal every element evaluated; the pools window by window and
// Softmax row by row equal the group's graph and the multiprecision path. What every kind has
// (valid cases valid, invalid ones rejected by their rule, the fast path equal to the
// multiprecision path) is written once in kind_properties_test.cc.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle/core/case_builder.h"
#include "oracle/semantics/oracle.h"
#include "oracle/semantics/qlinear_group/qlinear_pool_windows.h"
#include "oracle/semantics/qlinear_group/qlinear_softmax_rows.h"
#include "suites/properties/expect_same.h"
#include "suites/properties/rc_choices.h"

namespace qconform {
namespace {

// The generator outlives this call (shrinking re-runs it): it keeps its own copy of the kinds.
Case AnyValid(std::vector<OperatorKind> kinds) {
  return *rc::gen::exec([kinds = std::move(kinds)] {
    RcChoices ch;
    std::vector<const OpSchema*> schemas;
    for (OperatorKind kind : kinds) {
      for (const OpSchema* s : SchemasOf(kind)) schemas.push_back(s);
    }
    return GenerateValid(ch, *ch.Pick(schemas));
  });
}
// The default path equals the group's graph (the reference options) and the multiprecision
// path.
void ExpectEqualsGraphAndMultiprecision(const Case& c, const std::string& property) {
  EvaluateOptions graph, multiprecision;
  graph.reference = true;
  multiprecision.fast_path = false;
  ExpectSameAs(c, graph, property + "-graph");
  ExpectSameAs(c, multiprecision, property + "-multiprecision");
}
// A valid com.microsoft QLinear group whose operands repeat three tuples of codes (each
// operand's element i is its element i mod 3): the distinct-tuple evaluation has work to do.
Case AnyRepeatingQLinearGroup() {
  Case c = AnyValid({OperatorKind::kQLinearGroup});
  const std::vector<InputSpec> inputs = OperatorOf(c).inputs_of(c.inputs.size());
  for (size_t k = 0; k < inputs.size() && k < c.inputs.size(); ++k) {
    if (!c.inputs[k] || inputs[k].role == Role::kScale || inputs[k].role == Role::kZeroPoint)
      continue;
    Codes& codes = c.inputs[k]->codes;
    for (size_t i = 3; i < codes.size(); ++i) codes.set(i, codes[i % 3]);
  }
  return c;
}

RC_GTEST_PROP(QLinearGroupProperties, DistinctTuplesEqualEveryElement, ()) {
  EvaluateOptions every;
  every.distinct_tuples = false;
  ExpectSameAs(AnyRepeatingQLinearGroup(), every, "qlinear-group-distinct-tuples");
}

// A valid QLinearAveragePool or QLinearGlobalAveragePool: padding counted or not, windows at
// the edges, channels_last, the generator's edge-biased scales and codes.
Case AnyValidPool() {
  return *rc::gen::exec([] {
    RcChoices ch;
    std::vector<const OpSchema*> pools;
    for (const OpSchema* s : SchemasOf(OperatorKind::kQLinearGroup)) {
      if (s->op().op_type.find("AveragePool") != std::string_view::npos) pools.push_back(s);
    }
    return GenerateValid(ch, *ch.Pick(pools));
  });
}

// A float32 scale 2^e (1 + m) with e in [low, high): a long significand (rounded products,
// bounds that are not zero) or one of 4 bits (exact products, exact ties). Inside a generator.
double AnyScale(int low, int high) {
  const int bits = *rc::gen::element(4, 23);
  const float significand =
      1.0f + std::ldexp(static_cast<float>(*rc::gen::inRange(0, 1 << bits)), -bits);
  return std::ldexp(significand, *rc::gen::inRange(low, high));
}

// A larger QLinearAveragePool (up to 3 x 20 x 20, random codes, float32 scales with long
// significands, random kernel, pads, strides, count_include_pad, channels_last): hundreds of
// windows per case, so that the rare elements where an end of a bounded sum or a quotient sits
// near a rounding boundary are met.
Case AnyLargePool() {
  return *rc::gen::exec([] {
    const auto type = *rc::gen::element(DataType::kInt8, DataType::kUint8);
    const int64_t channels = *rc::gen::inRange(1, 4), h = *rc::gen::inRange(3, 21),
                  w = *rc::gen::inRange(3, 21);
    const bool channels_last = *rc::gen::arbitrary<bool>();
    std::vector<int64_t> shape = {1, channels, h, w};
    if (channels_last) shape = {1, h, w, channels};
    std::vector<uint32_t> codes(static_cast<size_t>(channels * h * w));
    for (uint32_t& code : codes) code = *rc::gen::inRange(0u, 256u);
    // y_scale also x_scale times a power of two (dyadic ratios).
    const auto scale = [] { return AnyScale(-12, 3); };
    const auto zero_point = [&] {
      return static_cast<double>(type == DataType::kInt8 ? *rc::gen::inRange(-128, 128)
                                                         : *rc::gen::inRange(0, 256));
    };
    const double x_scale = scale(), x_zero_point = zero_point(),
                 y_scale = *rc::gen::arbitrary<bool>()
                               ? scale()
                               : std::ldexp(x_scale, *rc::gen::inRange(-3, 4)),
                 y_zero_point = zero_point();
    Case c = MakeCase("QLinearAveragePool", 1,
                      {MakeTensorFromCodes(type, shape, codes),
                       MakeScalar(DataType::kFloat, x_scale), MakeScalar(type, x_zero_point),
                       MakeScalar(DataType::kFloat, y_scale), MakeScalar(type, y_zero_point)},
                      {}, "com.microsoft");
    const int64_t kh = *rc::gen::inRange<int64_t>(1, std::min<int64_t>(h, 4) + 1),
                  kw = *rc::gen::inRange<int64_t>(1, std::min<int64_t>(w, 4) + 1);
    std::vector<int64_t> pads;
    for (int64_t k : {kh, kw, kh, kw}) pads.push_back(*rc::gen::inRange<int64_t>(0, k));
    c.attributes = {{"kernel_shape", Attribute::Ints({kh, kw})},
                    {"pads", Attribute::Ints(pads)},
                    {"strides", Attribute::Ints({*rc::gen::inRange<int64_t>(1, 3),
                                                 *rc::gen::inRange<int64_t>(1, 3)})},
                    {"count_include_pad", Attribute::Int(*rc::gen::inRange(0, 2))},
                    {"channels_last", Attribute::Int(channels_last ? 1 : 0)}};
    return c;
  });
}

// The pools' window path (oracle/semantics/qlinear_group/qlinear_pool_windows.h) in each of its
// arithmetics equals the group's graph (the reference options) element by element: exact, range,
// every named strategy.
RC_GTEST_PROP(QLinearGroupProperties, PoolWindowsEqualTheGraph, ()) {
  const Case c = *rc::gen::oneOf(rc::gen::exec(AnyValidPool),
                                 rc::gen::resize(100, rc::gen::exec(AnyLargePool)));
  ExpectEqualsGraphAndMultiprecision(c, "qlinear-pool-windows");
  // The three arithmetics' float32 ends of every mean, not only their codes: a wrong end shows
  // here even where no code boundary lies near it.
  const OpSchema& schema = *ResolveSchema(c.domain, c.op_type, c.opset);
  const auto ends = [&](WindowArithmetic a) {
    std::vector<std::pair<float, float>> out;
    if (auto elements = PoolWindowElements(c, schema, a)) {
      for (const PoolElement& e : *elements) out.emplace_back(e.lo_end, e.hi_end);
    }
    return out;
  };
  const auto by_exact = ends(WindowArithmetic::kExact);
  if (ends(WindowArithmetic::kDouble) != by_exact || ends(WindowArithmetic::kInteger) != by_exact) {
    FailWith(c, "qlinear-pool-windows-ends", "the float32 ends of a mean differ");
  }
  EvaluateOptions graph;
  graph.reference = true;
  const OracleResult reference = RunOracle(c, graph);
  RC_ASSERT(reference.outputs.size() == 1u);
  const std::optional<OutputEvaluation> exact =
      EvaluatePoolWindows(c, schema, {}, WindowArithmetic::kExact);
  if (exact) ExpectSameOutput(c, *exact, reference.outputs[0], "qlinear-pool-windows-exact");
}

// A valid QLinearSoftmax from the generator, or a larger one (up to 8 rows of 200: random
// codes, float32 scales with long or 4-bit significands, Y at 1/256 or another scale, axis
// first or last, opset 13 or 11).
Case AnySoftmax() {
  const auto generated = rc::gen::exec([] {
    RcChoices ch;
    std::vector<const OpSchema*> softmax;
    for (const OpSchema* s : SchemasOf(OperatorKind::kQLinearGroup)) {
      if (s->op().op_type == "QLinearSoftmax") softmax.push_back(s);
    }
    return GenerateValid(ch, *ch.Pick(softmax));
  });
  const auto large = rc::gen::exec([] {
    const auto type = *rc::gen::element(DataType::kInt8, DataType::kUint8);
    // A quarter of the cases are rows of one code, n a power of two, at an exact tie: each
    // quotient 1/n over Y's scale 2/n is 1/2.
    const bool tie = *rc::gen::inRange(0, 4) == 0;
    const int64_t rows = *rc::gen::element<int64_t>(1, 3, 8),
                  n = tie ? *rc::gen::element<int64_t>(1, 2, 64, 256)
                          : *rc::gen::element<int64_t>(1, 7, 64, 200, 300);
    std::vector<uint32_t> codes(static_cast<size_t>(rows * n));
    const uint32_t spread = tie ? 1 : *rc::gen::element(4u, 32u, 256u);  // few codes: repeats
    const uint32_t base = *rc::gen::inRange(0u, 256u);
    for (uint32_t& code : codes) code = (base + *rc::gen::inRange(0u, spread)) & 0xFFu;
    const auto scale = [] { return AnyScale(-10, 2); };
    // 1/4096: quotients in the tens and hundreds, where many codes lie near a half-integer.
    const double y_scale = tie                               ? 2.0 / static_cast<double>(n)
                           : *rc::gen::element(0, 1, 2) == 0 ? scale()
                                                             : *rc::gen::element(0x1p-8, 0x1p-12);
    const double y_zero_point = type == DataType::kInt8 ? -128 : 0;
    const bool last = *rc::gen::arbitrary<bool>();
    Case c = MakeCase(
        "QLinearSoftmax", 1,
        {MakeTensorFromCodes(
             type, last ? std::vector<int64_t>{rows, n} : std::vector<int64_t>{n, rows}, codes),
         MakeScalar(DataType::kFloat, scale()),
         MakeScalar(type, static_cast<double>(*rc::gen::inRange(0, 128))),
         MakeScalar(DataType::kFloat, y_scale), MakeScalar(type, y_zero_point)},
        {}, "com.microsoft");
    c.attributes = {{"opset", Attribute::Int(*rc::gen::element(11, 13))},
                    {"axis", Attribute::Int(last ? 1 : 0)}};
    if (c.attributes["opset"].i < 13 && !last) c.attributes["axis"] = Attribute::Int(1);
    return c;
  });
  return *rc::gen::oneOf(generated, rc::gen::resize(100, large));  // large at full size
}

// The Softmax rows (oracle/semantics/qlinear_group/qlinear_softmax_rows.h), in doubles and in
// double-words, equal the group's graph element by element: exact, range, every named strategy; and
// their float32 ends equal those of the graph's own 100-bit slice.
RC_GTEST_PROP(QLinearGroupProperties, SoftmaxRowsEqualTheGraph, ()) {
  const Case c = AnySoftmax();
  ExpectEqualsGraphAndMultiprecision(c, "qlinear-softmax-rows");
  const OpSchema& schema = *ResolveSchema(c.domain, c.op_type, c.opset);
  const auto reference = SoftmaxRowEnds(c, schema, RowArithmetic::kReferenceEnds);
  for (RowArithmetic a : {RowArithmetic::kDoubles, RowArithmetic::kMultiprecision}) {
    if (SoftmaxRowEnds(c, schema, a) != reference) {
      FailWith(c, "qlinear-softmax-rows-ends", "the float32 ends of an element differ");
    }
  }
}

}  // namespace
}  // namespace qconform
