// Shorthands for the nn kernel tests: run one node against the nn registry, read outputs back.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {

inline const KernelRegistry& NnRegistry() {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return *registry;
}

// Runs `node` at `opset`; the test fails (and an empty list comes back) on an error.
inline std::vector<Value> RunNn(const std::string& node, int opset,
                                const std::vector<Value>& inputs) {
  auto out = RunNode(NnRegistry(), node, opset, inputs);
  EXPECT_TRUE(out.ok()) << node << ": " << out.status().ToString();
  return out.ok() ? std::move(out).value() : std::vector<Value>{};
}

// The status of running `node`, for tests of rejected inputs.
inline Status RunNnStatus(const std::string& node, int opset, const std::vector<Value>& inputs) {
  auto out = RunNode(NnRegistry(), node, opset, inputs);
  return out.ok() ? OkStatus() : out.status();
}

template <typename T>
std::vector<T> Elements(const Value& v) {
  const Tensor& t = v.tensor();
  return std::vector<T>(t.data<T>(), t.data<T>() + t.NumElements());
}

inline std::vector<int64_t> Dims(const Value& v) { return v.tensor().shape().dims(); }

// Element-wise closeness for float results computed in double and rounded once.
MATCHER_P(FloatsNear, expected, "") {
  if (arg.size() != expected.size()) {
    *result_listener << "size " << arg.size() << " vs " << expected.size();
    return false;
  }
  for (size_t i = 0; i < arg.size(); ++i) {
    const double tol = 1e-5 + 1e-5 * std::abs(static_cast<double>(expected[i]));
    if (std::abs(static_cast<double>(arg[i]) - static_cast<double>(expected[i])) > tol) {
      *result_listener << "element " << i << ": " << arg[i] << " vs " << expected[i];
      return false;
    }
  }
  return true;
}

}  // namespace onnxgate::ref
