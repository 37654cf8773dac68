// Shorthands for the quantization tests: packed and 8-bit float inputs, and reading the outputs'
// codes and values.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {

// A packed INT4/UINT4/INT2/UINT2 input.
inline Value SubByteValue(DataType type, Shape shape, const std::vector<int32_t>& values) {
  auto t = Tensor::FromSubByteInts(type, std::move(shape), values);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return Value::FromTensor(t.ok() ? std::move(t).value() : Tensor());
}

// A FLOAT4E2M1 input of the given floats (exactly representable ones in the tests).
inline Value Float4Value(Shape shape, const std::vector<float>& values) {
  std::vector<Float4E2M1> codes;
  for (float f : values) codes.push_back(Float4E2M1::FromFloat(f));
  return Value::FromTensor(Tensor::FromFloat4(std::move(shape), codes));
}

// An 8-bit float input of the given floats.
template <typename F>
Value Float8Value(Shape shape, const std::vector<float>& values) {
  std::vector<F> codes;
  for (float f : values) codes.push_back(F::FromFloat(f));
  return Value::FromTensor(Tensor::FromVector<F>(std::move(shape), codes));
}

// Every element decoded (any numeric type, packed ones included).
inline std::vector<double> DecodedOf(const Value& v) {
  std::vector<double> out;
  for (int64_t i = 0; i < v.tensor().NumElements(); ++i)
    out.push_back(v.tensor().ElementAsDouble(i));
  return out;
}

// The bytes of an 8-bit float output.
template <typename F>
std::vector<int> Float8BitsOf(const Value& v) {
  std::vector<int> out;
  for (F f : ValuesOf<F>(v)) out.push_back(f.bits);
  return out;
}

}  // namespace onnxgate::ref
