#include "suites/oracle/dequantize_rule_cases.h"
// A data table, one entry per rule and version range: a little past 400 lines, kept whole so a
// reader sees every rule case in one place.

#include "suites/oracle/dq_test_util.h"

namespace qconform::testing {

Tensor I8(std::vector<int64_t> shape) {
  std::vector<double> v(static_cast<size_t>(Tensor{1, shape, {}, false}.element_count()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 7) - 3;
  return MakeTensor(DataType::kInt8, std::move(shape), v);
}
Tensor F32(std::vector<int64_t> shape, double value) {
  std::vector<double> v(static_cast<size_t>(Tensor{1, shape, {}, false}.element_count()), value);
  return MakeTensor(DataType::kFloat, std::move(shape), v);
}
Tensor Scalar(DataType t, double v) {
  return MakeScalar(t, v);
}

namespace {

using D = DataType;
using Attrs = std::map<std::string, int64_t>;

const std::vector<int64_t> kAll = {10, 13, 19, 21, 23, 24, 25};
const std::vector<int64_t> k13Up = {13, 19, 21, 23, 24, 25};
const std::vector<int64_t> k19Up = {19, 21, 23, 24, 25};
const std::vector<int64_t> k21Up = {21, 23, 24, 25};
const std::vector<int64_t> k23Up = {23, 24, 25};
const std::vector<int64_t> k24Up = {24, 25};
const std::vector<int64_t> kMs = {1};

}  // namespace

std::vector<RuleCase> AllRuleCases() {
  std::vector<RuleCase> cases;
  auto add = [&](std::string name, std::string rule, std::vector<int64_t> opsets,
                 std::function<Case(int64_t)> invalid, std::function<Case(int64_t)> valid,
                 std::string domain = "") {
    cases.push_back({std::move(name), std::move(rule), std::move(opsets), std::move(domain),
                     std::move(invalid), std::move(valid)});
  };
  auto in_domain = [](std::string domain, std::function<Case(int64_t)> f) {
    return [domain, f](int64_t o) {
      Case c = f(o);
      c.domain = domain;
      return c;
    };
  };

  // --- inputs ---
  add(
      "missing_scale", "dq.inputs.count", kAll,
      [](int64_t o) { return MakeCase("DequantizeLinear", o, {I8({2})}); },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  add(
      "four_inputs", "dq.inputs.count", kAll,
      [](int64_t o) {
        return MakeCase("DequantizeLinear", o,
                        {I8({2}), F32({}), Scalar(D::kInt8, 0), Scalar(D::kInt8, 0)});
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({}), Scalar(D::kInt8, 0)); });
  add(
      "negative_dim", "dq.shape.negative_dim", kAll,
      [](int64_t o) {
        Case c = Dq(o, I8({2}), F32({}));
        c.inputs[0]->shape = {-2};
        return c;
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  // --- attributes ---
  add(
      "axis_in_10", "dq.attr.undefined", {10},
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({}), {}, {{"axis", 0}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({}));
      });
  add(
      "block_size_before_21", "dq.attr.undefined", {10, 13, 19},
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({}), {}, {{"block_size", 0}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({}));
      });
  add(
      "output_dtype_before_23", "dq.attr.undefined", {10, 13, 19, 21},
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"output_dtype", 1}});
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  add(
      "unknown_attribute", "dq.attr.undefined", kAll,
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"saturate", 1}});
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  add("ms_block_size", "dq.attr.undefined", kMs,
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2}), F32({}), {}, {{"block_size", 1}});
                }),
      in_domain("com.microsoft", [](int64_t o) { return Dq(o, I8({2}), F32({})); }),
      "com.microsoft");
  add(
      "axis_not_int", "dq.attr.type", k13Up,
      [](int64_t o) {
        Case c = Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 1}});
        c.attributes["axis"].kind = Attribute::Kind::kFloat;
        return c;
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 1}});
      });
  // --- types, version by version; cross-version pairs are in CrossVersion below ---
  add(
      "x_int16_before_21", "dq.type.x", {10, 13, 19},
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kInt16, {2}, {1, 2}), F32({}));
      },
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kInt8, {2}, {1, 2}), F32({}));
      });
  add(
      "x_float8_before_19", "dq.type.x", {10, 13},
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kFloat8E4M3FN, {2}, {1, 2}), F32({}));
      },
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kUint8, {2}, {1, 2}), F32({}));
      });
  add(
      "x_float4_before_23", "dq.type.x", {19, 21},
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kFloat4E2M1, {2}, {1, 2}), F32({}));
      },
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kFloat8E5M2, {2}, {1, 2}), F32({}));
      });
  add(
      "x_float_anywhere", "dq.type.x", kAll,
      [](int64_t o) {
        return Dq(o, MakeTensor(D::kFloat, {2}, {1, 2}), F32({}));
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  add(
      "x_double_unknown_to_oracle", "dq.type.x", kAll,
      [](int64_t o) {
        Case c = Dq(o, I8({2}), F32({}));
        c.inputs[0]->data_type = 11;
        c.inputs[0]->codes = {};
        return c;
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({})); });
  add("ms_x_int16", "dq.type.x", kMs,
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, MakeTensor(D::kInt16, {2}, {1, 2}), F32({}));
                }),
      in_domain("com.microsoft", [](int64_t o) { return Dq(o, I8({2}), F32({})); }),
      "com.microsoft");
  add(
      "scale_float16_before_19", "dq.type.x_scale", {10, 13},
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat16, 0.5)); },
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat, 0.5)); });
  add(
      "scale_e8m0_before_24", "dq.type.x_scale", {19, 21, 23},
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat8E8M0, 0.5)); },
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kBfloat16, 0.5)); });
  add(
      "scale_integer", "dq.type.x_scale", kAll,
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kUint8, 2)); },
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat, 2)); });
  add("ms_scale_bfloat16", "dq.type.x_scale", kMs,
      in_domain("com.microsoft",
                [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kBfloat16, 0.5)); }),
      in_domain("com.microsoft",
                [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat16, 0.5)); }),
      "com.microsoft");
  add(
      "zero_point_type", "dq.type.x_zero_point", kAll,
      [](int64_t o) { return Dq(o, I8({2}), F32({}), Scalar(D::kUint8, 1)); },
      [](int64_t o) { return Dq(o, I8({2}), F32({}), Scalar(D::kInt8, 1)); });
  add(
      "output_dtype_int8", "dq.output_dtype.type", k23Up,
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"output_dtype", 3}});
      },
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"output_dtype", 10}});
      });
  add(
      "output_dtype_unknown", "dq.output_dtype.type", k23Up,
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"output_dtype", 99}});
      },
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), {}, {{"output_dtype", 16}});
      });
  add(
      "e8m0_scale_without_output_dtype", "dq.output_dtype.required", k24Up,
      [](int64_t o) { return Dq(o, I8({2}), Scalar(D::kFloat8E8M0, 0.5)); },
      [](int64_t o) {
        return Dq(o, I8({2}), Scalar(D::kFloat8E8M0, 0.5), {}, {{"output_dtype", 1}});
      });
  // --- shapes and granularity ---
  add(
      "zero_point_shape", "dq.shape.zero_point", kAll,
      [](int64_t o) {
        return Dq(o, I8({2}), F32({}), MakeTensor(D::kInt8, {1, 1}, {0}));
      },
      [](int64_t o) { return Dq(o, I8({2}), F32({}), Scalar(D::kInt8, 0)); });
  add(
      "scale_1d_in_10", "dq.scale.rank", {10}, [](int64_t o) { return Dq(o, I8({2}), F32({2})); },
      [](int64_t o) { return Dq(o, I8({2}), F32({1})); });
  add(
      "scale_2d_before_21", "dq.scale.rank", {13, 19},
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({2, 3}));
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({3}));
      });
  add(
      "scale_full_rank_without_block_size", "dq.scale.rank", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}));
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"block_size", 2}});
      });
  add(
      "per_axis_axis_too_big", "dq.axis.range", k13Up,
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 1}});
      });
  add(
      "per_axis_axis_too_negative", "dq.axis.range", k13Up,
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({2}), {}, {{"axis", -3}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({2}), {}, {{"axis", -2}});
      });
  add(
      "per_axis_default_axis_rank1", "dq.axis.range", k13Up,
      [](int64_t o) { return Dq(o, I8({3}), F32({3})); },
      [](int64_t o) {
        return Dq(o, I8({3}), F32({3}), {}, {{"axis", 0}});
      });
  add(
      "blocked_axis_out_of_range", "dq.axis.range", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"axis", 2}, {"block_size", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"axis", -1}, {"block_size", 2}});
      });
  add(
      "per_axis_length", "dq.per_axis.length", k13Up,
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({2}), {}, {{"axis", 1}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 3}), F32({2}), {}, {{"axis", 0}});
      });
  add("ms_per_axis_length", "dq.per_axis.length", kMs,
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({2}), {}, {{"axis", 1}});
                }),
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 1}});
                }),
      "com.microsoft");
  add(
      "block_size_negative", "dq.blocked.block_size_negative", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"block_size", -2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"block_size", 2}});
      });
  add(
      "blocked_scale_rank", "dq.blocked.rank", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2}), {}, {{"axis", 1}, {"block_size", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 2}});
      });
  add(
      "blocked_scalar_scale", "dq.blocked.rank", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({}), {}, {{"block_size", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({}));
      });
  add(
      "blocked_dims", "dq.blocked.dims", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({3, 2}), {}, {{"axis", 1}, {"block_size", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 4}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 2}});
      });
  // Di = 5, Si = 2: the accepted range is [ceil(5/2), ceil(5/1) - 1] = [3, 4].
  add(
      "block_size_below_range", "dq.blocked.block_size_range", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 5}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 2}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 5}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 3}});
      });
  add(
      "block_size_above_range", "dq.blocked.block_size_range", k21Up,
      [](int64_t o) {
        return Dq(o, I8({2, 5}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 5}});
      },
      [](int64_t o) {
        return Dq(o, I8({2, 5}), F32({2, 2}), {}, {{"axis", 1}, {"block_size", 4}});
      });
  // ONNX's reference checks only Si * B >= Di, which accepts B = 6 here; the spec's range does not.
  add(
      "block_size_reference_would_accept", "dq.blocked.block_size_range", k21Up,
      [](int64_t o) {
        return Dq(o, I8({5, 2}), F32({2, 2}), {}, {{"axis", 0}, {"block_size", 6}});
      },
      [](int64_t o) {
        return Dq(o, I8({5, 2}), F32({2, 2}), {}, {{"axis", 0}, {"block_size", 3}});
      });
  add("ms_axis_absent_1d_scale", "dq.ms.axis_absent_not_scalar", kMs,
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({3}));
                }),
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({3}), {}, {{"axis", 1}});
                }),
      "com.microsoft");
  add("ms_axis_present_scalar_scale", "dq.ms.axis_present_not_1d", kMs,
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({}), {}, {{"axis", 1}});
                }),
      in_domain("com.microsoft",
                [](int64_t o) {
                  return Dq(o, I8({2, 3}), F32({}));
                }),
      "com.microsoft");
  add(
      "operator_before_opset_10", "op.not_in_opset", {9},
      [](int64_t o) { return Dq(o, I8({2}), F32({})); },
      [](int64_t o) { return Dq(o + 1, I8({2}), F32({})); });
  return cases;
}

std::vector<RuleCase> ImplementationDefinedCases() {
  std::vector<RuleCase> cases;
  cases.push_back(
      {"int32_zero_point", "dq.zero_point.int32_nonzero", kAll, "",
       [](int64_t o) {
         return Dq(o, MakeTensor(D::kInt32, {2}, {7, 9}), F32({}), Scalar(D::kInt32, 5));
       },
       [](int64_t o) {
         return Dq(o, MakeTensor(D::kInt32, {2}, {7, 9}), F32({}), Scalar(D::kInt32, 0));
       }});
  cases.push_back({"float8_zero_point", "dq.zero_point.float_nonzero", k19Up, "",
                   [](int64_t o) {
                     return Dq(o, MakeTensor(D::kFloat8E4M3FN, {2}, {1, 2}), F32({}),
                               Scalar(D::kFloat8E4M3FN, 1));
                   },
                   [](int64_t o) {
                     return Dq(o, MakeTensor(D::kFloat8E4M3FN, {2}, {1, 2}), F32({}),
                               Scalar(D::kFloat8E4M3FN, -0.0));
                   }});
  cases.push_back({"float4_zero_point", "dq.zero_point.float_nonzero", k23Up, "",
                   [](int64_t o) {
                     return Dq(o, MakeTensor(D::kFloat4E2M1, {3}, {1, 2, 6}), F32({}),
                               Scalar(D::kFloat4E2M1, 0.5));
                   },
                   [](int64_t o) {
                     return Dq(o, MakeTensor(D::kFloat4E2M1, {3}, {1, 2, 6}), F32({}),
                               Scalar(D::kFloat4E2M1, 0));
                   }});
  cases.push_back({"per_tensor_axis_out_of_range", "dq.per_tensor.axis_range", k13Up, "",
                   [](int64_t o) {
                     return Dq(o, I8({2, 3}), F32({}), {}, {{"axis", 5}});
                   },
                   [](int64_t o) {
                     return Dq(o, I8({2, 3}), F32({}), {}, {{"axis", -2}});
                   }});
  return cases;
}

}  // namespace qconform::testing
