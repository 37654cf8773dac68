// Tests for Tensor storage sharing, cloning, halfs and formatting, and Value kinds.
#include "runtime/base/tensor.h"

#include <gtest/gtest.h>

#include <cstdint>

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

TEST(TensorTest, ZeroedAndUninitializedStorage) {
  Tensor zeros(DataType::kFloat, Shape({3, 5}));
  for (int64_t i = 0; i < zeros.NumElements(); ++i) EXPECT_EQ(zeros.data<float>()[i], 0.f);
  // Uninitialized storage: the same shape, size and alignment, and its elements are the writer's.
  Tensor raw = Tensor::Uninitialized(DataType::kFloat, Shape({3, 5}));
  EXPECT_EQ(raw.shape(), Shape({3, 5}));
  EXPECT_EQ(raw.ByteSize(), 15 * sizeof(float));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(raw.raw_data()) % 64, 0u);
  for (int64_t i = 0; i < raw.NumElements(); ++i) raw.mutable_data<float>()[i] = 1.5f;
  EXPECT_EQ(raw.Clone().data<float>()[14], 1.5f);
  EXPECT_NE(Tensor::Uninitialized(DataType::kFloat, Shape({0})).raw_data(), nullptr);
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

TEST(TensorTest, PackedTypesWithOddElementCounts) {
  auto t = Tensor::FromSubByteInts(DataType::kInt4, Shape({5}), {-8, 7, -1, 0, 3});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->ByteSize(), 3u);
  const uint8_t* bytes = static_cast<const uint8_t*>(t->raw_data());
  EXPECT_EQ(bytes[0], 0x78);  // -8 = 0x8 low, 7 high
  EXPECT_EQ(bytes[1], 0x0F);  // -1 = 0xF low, 0 high
  EXPECT_EQ(bytes[2], 0x03);  // 3, padding nibble zero
  EXPECT_EQ(t->SubByteInt(2), -1);
  EXPECT_EQ(t->DebugString(), "INT4[5] {-8, 7, -1, 0, 3}");
  Tensor c = t->Clone();
  ASSERT_TRUE(t->SetSubByteInt(4, -4).ok());
  EXPECT_EQ(c.SubByteInt(4), 3);
  EXPECT_EQ(t->SubByteInt(4), -4);
  EXPECT_EQ(t->SubByteInt(3), 0);
  EXPECT_EQ(t->SetSubByteInt(0, 8).code(), StatusCode::kInvalidArgument);

  auto u2 = Tensor::FromSubByteInts(DataType::kUint2, Shape({7}), {0, 1, 2, 3, 3, 2, 1});
  ASSERT_TRUE(u2.ok());
  EXPECT_EQ(u2->ByteSize(), 2u);
  EXPECT_EQ(static_cast<const uint8_t*>(u2->raw_data())[0], 0xE4);  // 0 | 1<<2 | 2<<4 | 3<<6
  EXPECT_EQ(static_cast<const uint8_t*>(u2->raw_data())[1], 0x1B);  // 3 | 2<<2 | 1<<4 | pad 0
  EXPECT_EQ(u2->DebugString(4), "UINT2[7] {0, 1, 2, 3, ...}");
  auto i2 = Tensor::FromSubByteInts(DataType::kInt2, Shape({3}), {-2, 1, -1});
  ASSERT_TRUE(i2.ok());
  EXPECT_EQ(i2->DebugString(), "INT2[3] {-2, 1, -1}");
  auto bad = Tensor::FromSubByteInts(DataType::kUint4, Shape({2}), {1, 16});
  EXPECT_EQ(bad.status().message(), "element 1: 16 is out of range for UINT4 [0, 15]");

  Tensor f4 = Tensor::FromFloat4(
      Shape({3}),
      {Float4E2M1::FromFloat(-6.f), Float4E2M1::FromFloat(0.5f), Float4E2M1::FromFloat(1.5f)});
  EXPECT_EQ(f4.ByteSize(), 2u);
  EXPECT_EQ(static_cast<const uint8_t*>(f4.raw_data())[0], 0x1F);
  EXPECT_EQ(f4.PackedCode(2), 0x3);
  EXPECT_EQ(f4.DebugString(), "FLOAT4E2M1[3] {-6, 0.5, 1.5}");
  EXPECT_EQ(f4.ElementAsDouble(0), -6.0);
}

TEST(TensorTest, Float8TensorsPrintDecodedValues) {
  Tensor a = Tensor::FromVector<Float8E4M3FN>(
      Shape({3}), {Float8E4M3FN{0x7E}, Float8E4M3FN{0x7F}, Float8E4M3FN{0x80}});
  EXPECT_EQ(a.ByteSize(), 3u);
  EXPECT_EQ(a.DebugString(), "FLOAT8E4M3FN[3] {448, nan, -0}");
  Tensor b = Tensor::FromVector<Float8E5M2>(Shape({2}), {Float8E5M2{0x7C}, Float8E5M2{0xFC}});
  EXPECT_EQ(b.Clone().DebugString(), "FLOAT8E5M2[2] {inf, -inf}");
  Tensor c = Tensor::FromVector<Float8E4M3FNUZ>(Shape({1}), {Float8E4M3FNUZ{0x80}});
  EXPECT_EQ(c.DebugString(), "FLOAT8E4M3FNUZ[1] {nan}");
  Tensor d = Tensor::FromVector<Float8E5M2FNUZ>(Shape({1}), {Float8E5M2FNUZ::FromFloat(-2.f)});
  EXPECT_EQ(d.DebugString(), "FLOAT8E5M2FNUZ[1] {-2}");
  Tensor e = Tensor::FromVector<Float8E8M0>(Shape({3}),
                                            {Float8E8M0{127}, Float8E8M0{0xFF}, Float8E8M0{0}});
  EXPECT_EQ(e.DebugString(), "FLOAT8E8M0[3] {1, nan, 5.87747175e-39}");
  EXPECT_EQ(e.data<Float8E8M0>()[0].bits, 127);
}

TEST(TensorTest, TypedPointersAreRefusedOnPackedTensors) {
  Tensor t(DataType::kInt4, Shape({4}));
  EXPECT_DEATH(t.data<uint8_t>(), "");
  EXPECT_DEATH(t.mutable_data<int8_t>(), "");
  Tensor f(DataType::kFloat4E2M1, Shape({4}));
  EXPECT_DEATH(f.data<uint8_t>(), "");
}

TEST(TensorTest, EmptyPackedTensors) {
  Tensor t(DataType::kUint4, Shape({0, 3}));
  EXPECT_EQ(t.ByteSize(), 0u);
  EXPECT_EQ(t.DebugString(), "UINT4[0,3] {}");
  EXPECT_EQ(t.Clone().NumElements(), 0);
}

}  // namespace
}  // namespace onnxgate
