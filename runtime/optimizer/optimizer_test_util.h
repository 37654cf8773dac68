// For the optimizer's tests: models from ONNX text, runs on ref, the ops a model holds, and a
// comparison of outputs under a tolerance.
#pragma once

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "runtime/ep/ref/ref_provider.h"
#include "runtime/model/model.h"
#include "runtime/optimizer/optimizer.h"
#include "runtime/session/session.h"

namespace onnxgate {
namespace optimizer_test {

// The model of ONNX text `text`, loaded with every check; null (and a test failure) on errors.
inline std::shared_ptr<const Model> LoadText(const std::string& text) {
  auto proto = Model::ParseText(text, "test.onnxtxt");
  EXPECT_TRUE(proto.ok()) << proto.status().ToString();
  if (!proto.ok()) return nullptr;
  auto model = Model::FromProto(std::move(proto).value(), ".", "test.onnxtxt");
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? *model : nullptr;
}

inline std::shared_ptr<const ExecutionProvider> Ref() {
  static const auto* provider =
      new StatusOr<std::shared_ptr<const ExecutionProvider>>(CreateRefProvider());
  EXPECT_TRUE(provider->ok());
  return provider->ok() ? provider->value() : nullptr;
}

// The optimized model; null (and a test failure) on errors.
inline std::shared_ptr<const Model> Optimize(const std::shared_ptr<const Model>& model, int level,
                                             OptimizationReport* report = nullptr,
                                             OptimizerOptions options = {}) {
  options.level = level;
  auto optimized = OptimizeModel(model, options, report);
  EXPECT_TRUE(optimized.ok()) << optimized.status().ToString();
  return optimized.ok() ? *optimized : nullptr;
}

// The outputs of one run on ref; empty (and a test failure) on errors.
inline std::vector<Value> RunOnRef(const std::shared_ptr<const Model>& model,
                                   const std::vector<NamedValue>& feeds) {
  auto session = Session::Create(model, {Ref()});
  EXPECT_TRUE(session.ok()) << session.status().ToString();
  if (!session.ok()) return {};
  auto outputs = (*session)->Run(feeds);
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  return outputs.ok() ? *outputs : std::vector<Value>();
}

// The op types of the main graph's nodes, in order.
inline std::vector<std::string> OpTypes(const Model& model) {
  std::vector<std::string> ops;
  for (const auto& node : model.graph().node()) ops.push_back(node.op_type());
  return ops;
}

inline std::vector<std::string> NodeNames(const Model& model) {
  std::vector<std::string> names;
  for (const auto& node : model.graph().node()) names.push_back(node.name());
  return names;
}

inline std::vector<std::string> InitializerNames(const Model& model) {
  std::vector<std::string> names;
  for (const auto& t : model.graph().initializer()) names.push_back(t.name());
  return names;
}

// A float tensor of `shape` with values in [-2, 2) from a fixed linear congruential sequence.
inline Value RandomFloats(Shape shape, uint32_t seed) {
  Tensor t(DataType::kFloat, std::move(shape));
  uint32_t state = seed * 2654435761u + 1;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    state = state * 1664525u + 1013904223u;
    t.mutable_data<float>()[i] = static_cast<float>(state >> 8) / 16777216.0f * 4.0f - 2.0f;
  }
  return Value::FromTensor(std::move(t));
}

// Same shapes and element types, and every element within atol + rtol * |expected|.
inline void ExpectClose(const std::vector<Value>& expected, const std::vector<Value>& actual,
                        double rtol = 1e-5, double atol = 1e-6) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    const Tensor& e = expected[k].tensor();
    const Tensor& a = actual[k].tensor();
    ASSERT_EQ(e.dtype(), a.dtype()) << "output " << k;
    ASSERT_EQ(e.shape(), a.shape()) << "output " << k;
    for (int64_t i = 0; i < e.NumElements(); ++i) {
      const double want = e.ElementAsDouble(i), got = a.ElementAsDouble(i);
      ASSERT_LE(std::fabs(want - got), atol + rtol * std::fabs(want))
          << "output " << k << " element " << i << ": expected " << want << ", got " << got;
    }
  }
}

}  // namespace optimizer_test
}  // namespace onnxgate
