// Test helpers for the ref EP's elementwise and tensor kernel tests: reading output values and
// asserting on StatusOr results.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/base/value.h"

namespace onnxgate::ref {

// The elements of a tensor value as a vector of T (T must match the tensor's element type).
template <typename T>
std::vector<T> ValuesOf(const Value& v) {
  const Tensor& t = v.tensor();
  const T* p = t.data<T>();
  return std::vector<T>(p, p + t.NumElements());
}

inline std::vector<int64_t> DimsOf(const Value& v) { return v.tensor().shape().dims(); }

// float16 / bfloat16 tensors from floats, and back.
inline Value HalfValue(Shape shape, const std::vector<float>& values) {
  std::vector<Float16> h;
  for (float f : values) h.push_back(Float16::FromFloat(f));
  return Value::FromTensor(Tensor::FromVector<Float16>(std::move(shape), h));
}
inline Value BFloat16Value(Shape shape, const std::vector<float>& values) {
  std::vector<BFloat16> h;
  for (float f : values) h.push_back(BFloat16::FromFloat(f));
  return Value::FromTensor(Tensor::FromVector<BFloat16>(std::move(shape), h));
}
template <typename H>
std::vector<float> HalfValuesOf(const Value& v) {
  std::vector<float> out;
  for (H h : ValuesOf<H>(v)) out.push_back(h.ToFloat());
  return out;
}

}  // namespace onnxgate::ref

#define ONNXGATE_TEST_CONCAT_INNER(a, b) a##b
#define ONNXGATE_TEST_CONCAT(a, b) ONNXGATE_TEST_CONCAT_INNER(a, b)

// ASSERT_OK_AND_ASSIGN(auto outs, RunNode(...)): fails the test with the status message.
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL(ONNXGATE_TEST_CONCAT(_test_statusor_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr)   \
  auto tmp = (expr);                                \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString(); \
  lhs = std::move(tmp).value()

// EXPECT_ERROR_CODE(expr, kInvalidArgument): the Status or StatusOr failed with that code.
#define EXPECT_ERROR_CODE(expr, code_name)                                              \
  do {                                                                                  \
    auto _st = (expr);                                                                  \
    EXPECT_FALSE(_st.ok());                                                             \
    EXPECT_EQ(::onnxgate::ref::StatusOf(_st).code(), ::onnxgate::StatusCode::code_name) \
        << ::onnxgate::ref::StatusOf(_st).ToString();                                   \
  } while (0)

namespace onnxgate::ref {
inline Status StatusOf(const Status& s) { return s; }
template <typename T>
Status StatusOf(const StatusOr<T>& s) {
  return s.status();
}
}  // namespace onnxgate::ref
