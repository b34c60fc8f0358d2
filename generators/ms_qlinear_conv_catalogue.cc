// com.microsoft QLinearConv 1 (ONNX Runtime's ContribOperators.md; its NHWC transformer writes
// it with channels_last 1): QLinearConv-10's boundary and cell cases (conv_boundary_catalogue.cc,
// compute_cell_catalogue.cc) again in that domain, each with x channels-last (x moved to
// N x D1 ... x C, w as it is, y read back as N x O1 ... x M), and those that fill every cell
// (ties, separating accumulators, layouts per cell, int16 pairs) also without the attribute;
// must-reject cases where channels_last moves what a rule reads.
#include "generators/catalogue_builder.h"
#include "generators/golden_catalogue.h"
#include "oracle/core/case_builder.h"
#include "oracle/core/conv_shape.h"
#include "oracle/semantics/integer/channels_last.h"

namespace qconform {
namespace {

using D = DataType;

constexpr std::string_view kFrom = "qlc10-";

// The case in com.microsoft's domain, version 1.
Case Microsoft(Case c, const std::string& id) {
  c.domain = "com.microsoft";
  c.opset = 1;
  c.id = id;
  return c;
}

// x (input 0) moved from N x C x D1 ... to N x D1 ... x C.
Case ChannelsLast(Case c) {
  Tensor& x = *c.inputs.at(0);
  if (x.shape.size() >= 3) {
    Codes moved(FindElementType(x.data_type)->bits, x.codes.size());
    for (size_t i = 0; i < x.codes.size(); ++i) {
      moved.set(static_cast<size_t>(ChannelsLastIndex(x.shape, static_cast<int64_t>(i))),
                x.codes[i]);
    }
    x.codes = std::move(moved);
    x.shape = ChannelsLastShape(x.shape);
  }
  c.attributes["channels_last"] = Attribute::Int(1);
  return c;
}

bool StartsWith(const std::string& s, std::string_view p) {
  return s.compare(0, p.size(), p) == 0;
}

class MicrosoftConv : public CatalogueBuilder {
 public:
  void FromQLinearConv10() {
    std::vector<GoldenCase> from = ConvBoundaryCatalogue();
    for (GoldenCase& g : ComputeCellCatalogue()) from.push_back(std::move(g));
    for (const GoldenCase& g : from) {
      if (g.c.op_type != "QLinearConv" || !g.intended_rule.empty()) continue;
      const std::string rest = g.c.id.substr(kFrom.size());
      Add(ChannelsLast(Microsoft(g.c, "msqlc1-nhwc-" + rest)), g.features + ",channels-last:1",
          g.decision + ",d35");
      // Without the attribute, the cases that fill every cell.
      for (std::string_view cells : {"ties-cell-", "separate-", "cell-", "pairs-"}) {
        if (StartsWith(rest, cells))
          Add(Microsoft(g.c, "msqlc1-" + rest), g.features, g.decision + ",d35");
      }
    }
  }

  // Under channels_last x's channels are its last dimension: a w that matches x's second
  // dimension instead, and an x of rank 2, break the geometry's rules.
  void Rules() {
    const auto u8 = [](std::vector<int64_t> s) {
      return MakeTensor(D::kUint8, s,
                        std::vector<double>(static_cast<size_t>(ShapeElements(s)), 7));
    };
    const auto f = [](double v) { return MakeScalar(D::kFloat, v); };
    const auto conv = [&](Tensor x, Tensor w, const std::string& id) {
      Case c = MakeCase("QLinearConv", 1,
                        {std::move(x), f(0.5), MakeScalar(D::kUint8, 1), std::move(w), f(0.25),
                         MakeScalar(D::kUint8, 2), f(4), MakeScalar(D::kUint8, 3)},
                        {}, "com.microsoft", id);
      c.attributes["channels_last"] = Attribute::Int(1);
      return c;
    };
    Add(conv(u8({1, 4, 4, 3}), u8({2, 4, 3, 3}), "msqlc1-nhwc-reject-channels"),
        "negative:qlc.shape.channels",
        "channels_last 1: x [1, 4, 4, 3] has 3 channels (its last dimension), w.shape[1] is 4",
        "qlc.shape.channels");
    Add(conv(u8({2, 4}), u8({2, 2, 3, 3}), "msqlc1-nhwc-reject-rank-2-x"),
        "negative:qlc.shape.rank", "x is [N, D1, ..., C]", "qlc.shape.rank");
  }
};

}  // namespace

std::vector<GoldenCase> MicrosoftQLinearConvCatalogue() {
  MicrosoftConv b;
  b.FromQLinearConv10();
  b.Rules();
  return b.cases;
}

}  // namespace qconform
