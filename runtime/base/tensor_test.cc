// Tests for Tensor storage sharing, cloning, halfs and formatting, and Value kinds.
#include "runtime/base/tensor.h"

#include <gtest/gtest.h>

#include "runtime/base/value.h"

namespace onnxgate {
namespace {

TEST(TensorTest, CopiesShareStorageAndClonesDoNot) {
  Tensor a = Tensor::FromVector<float>(Shape({2}), {1.f, 2.f});
  Tensor b = a;
  Tensor c = a.Clone();
  a.mutable_data<float>()[0] = 5.f;
  EXPECT_EQ(b.data<float>()[0], 5.f);
  EXPECT_EQ(c.data<float>()[0], 1.f);
  EXPECT_EQ(a.Reshaped(Shape({1, 2})).shape(), Shape({1, 2}));
}

TEST(TensorTest, StringsAndZeroSize) {
  Tensor s = Tensor::FromVector<std::string>(Shape({2}), {"a", "bc"});
  EXPECT_EQ(s.data<std::string>()[1], "bc");
  EXPECT_EQ(s.Clone().data<std::string>()[0], "a");
  Tensor e(DataType::kFloat, Shape({0, 3}));
  EXPECT_EQ(e.NumElements(), 0);
  EXPECT_EQ(e.DebugString(), "FLOAT[0,3] {}");
}

TEST(TensorTest, HalfConversionsRoundTrip) {
  EXPECT_EQ(Float16::FromFloat(1.0f).bits, 0x3C00);
  EXPECT_EQ(Float16::FromFloat(-2.5f).ToFloat(), -2.5f);
  EXPECT_EQ(BFloat16::FromFloat(1.0f).bits, 0x3F80);
  EXPECT_EQ(BFloat16::FromFloat(3.0f).ToFloat(), 3.0f);
}

TEST(ValueTest, KindsAndTypeStrings) {
  Value t = Value::FromTensor(Tensor::Scalar<int64_t>(3));
  EXPECT_EQ(t.TypeString(), "tensor(int64)[]");
  Value s = Value::FromSequence(DataType::kFloat, {});
  EXPECT_EQ(s.TypeString(), "seq(tensor(float))[0 items]");
  Value none = Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat);
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(none.TypeString(), "optional(tensor(float)): none");
  Value some = Value::OptionalOf(t);
  EXPECT_TRUE(some.has_value());
  EXPECT_TRUE(some.optional_value().is_tensor());
}

}  // namespace
}  // namespace onnxgate
