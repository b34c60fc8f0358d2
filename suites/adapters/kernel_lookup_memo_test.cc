// ONNX Runtime's refusals for want of a kernel, remembered per backend process for the cases of
// the same signature (kernel_lookup_memo.h): what is alike, what is not, what is kept, and that
// the answers are those of a fresh process.
#include <gtest/gtest.h>

#include "adapters/backend.h"
#include "adapters/onnxruntime/kernel_lookup_memo.h"
#include "oracle/core/case_builder.h"

namespace qconform {
namespace {
using D = DataType;

// DequantizeLinear-19 of int32 x with a bfloat16 scale: ORT 1.30 has no such kernel.
Case Refused(double first, const std::string& id) {
  return MakeCase("DequantizeLinear", 19,
                  {MakeTensor(D::kInt32, {2}, {first, 2}), MakeScalar(D::kBfloat16, 2)}, {}, "",
                  id);
}

BackendResult Refusal(const std::string& node) {
  return {BackendError{ErrorKind::kRejectedAtLoad,
                       "Could not find an implementation for DequantizeLinear(19) node with "
                       "name '" +
                           node + "'"},
          {}};
}

TEST(KernelLookupMemo, TheSignatureIsWhatTheLookupReads) {
  const Case a = Refused(1, "a");
  const std::string s = KernelLookupMemo::Signature(a);
  // Values, shapes and attributes that keep the types: the same signature.
  EXPECT_EQ(s, KernelLookupMemo::Signature(Refused(-7, "b")));
  Case shape = a;
  shape.inputs[0] = MakeTensor(D::kInt32, {1, 2}, {1, 2});
  Case axis = a;
  axis.attributes["axis"] = Attribute::Int(0);
  for (const Case* same : {&shape, &axis}) EXPECT_EQ(s, KernelLookupMemo::Signature(*same));
  // Types, inputs, opsets, operators: another one.
  Case type = a;
  type.inputs[1] = MakeScalar(D::kFloat16, 2);
  Case absent = a;
  absent.inputs.push_back(std::nullopt);
  Case opset = a;
  opset.opset = 21;
  Case output = a;
  output.opset = 21;
  output.attributes["output_dtype"] = Attribute::Int(static_cast<int64_t>(D::kFloat));
  Case op = a;
  op.op_type = "QuantizeLinear";
  for (const Case* other : {&type, &absent, &opset, &op}) {
    EXPECT_NE(s, KernelLookupMemo::Signature(*other));
  }
  EXPECT_NE(KernelLookupMemo::Signature(opset), KernelLookupMemo::Signature(output));
}

TEST(KernelLookupMemo, KeepsOnlyTheKernelRefusalOfTheCasesOwnNode) {
  const Case a = Refused(1, "a"), b = Refused(3, "b");
  KernelLookupMemo memo;
  memo.Remember(a, Refusal("Widen_y"));  // an appended Cast's node: not the case's
  EXPECT_EQ(memo.Recall(b), nullptr);
  memo.Remember(a, {BackendError{ErrorKind::kRejectedAtRun,
                                 "Could not find an implementation for "
                                 "DequantizeLinear(19) node with name "
                                 "'DequantizeLinear'"},
                    {}});
  EXPECT_EQ(memo.Recall(b), nullptr) << "a refusal at run is not a kernel lookup";
  memo.Remember(a, {BackendError{ErrorKind::kRejectedAtLoad, "TypeInferenceError"}, {}});
  EXPECT_EQ(memo.Recall(b), nullptr);
  memo.Remember(a, Refusal("DequantizeLinear"));
  const BackendResult* known = memo.Recall(b);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->error->message, Refusal("DequantizeLinear").error->message);
  Case other = b;
  other.inputs[0] = MakeTensor(D::kInt8, {2}, {1, 2});
  EXPECT_EQ(memo.Recall(other), nullptr);
}

// On ONNX Runtime itself: the second case, answered from the memo, gets what a fresh process
// says about it, word for word.
TEST(KernelLookupMemo, AnswersAsAFreshOnnxRuntimeProcess) {
  auto warm = MakeBackend("onnxruntime", {});
  ASSERT_EQ(warm->Open(), std::nullopt);
  const BackendResult first = warm->Run(Refused(1, "a"));
  ASSERT_TRUE(first.error);
  ASSERT_TRUE(KernelLookupMemo::IsKernelLookupRefusal(Refused(1, "a"), first))
      << first.error->message;
  // Other values in another shape.
  Case b = Refused(5, "b");
  b.inputs[0] = MakeTensor(D::kInt32, {3, 1}, {5, -9, 1});
  const BackendResult remembered = warm->Run(b);
  auto fresh = MakeBackend("onnxruntime", {});
  ASSERT_EQ(fresh->Open(), std::nullopt);
  const BackendResult heard = fresh->Run(b);
  ASSERT_TRUE(remembered.error && heard.error);
  EXPECT_EQ(remembered.error->kind, heard.error->kind);
  EXPECT_EQ(remembered.error->message, heard.error->message);
}

}  // namespace
}  // namespace qconform
