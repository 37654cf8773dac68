// The random generators: RandomUniform, RandomNormal, RandomUniformLike, RandomNormalLike and
// Bernoulli. With a `seed` attribute every run of the node draws the same numbers (the engine is
// created per run, which keeps Run const and thread-safe); without one each run is seeded from
// std::random_device. No runtime reproduces another's draws: conformance cases of these ops can
// only check shapes and types.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class RandomKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  enum class Distribution { kUniform, kNormal, kBernoulli };
  struct Config {
    Distribution distribution = Distribution::kUniform;
    bool like = false;                      // shape (and by default type) from the input
    DataType dtype = DataType::kUndefined;  // kUndefined: the input's type
    std::vector<int64_t> shape;             // RandomUniform and RandomNormal
    double low = 0, high = 1;               // uniform
    double mean = 0, scale = 1;             // normal
    std::optional<float> seed;
    std::vector<DataType> output_types;  // what T (T2) allows in this op version
  };
  explicit RandomKernel(Config c) : c_(std::move(c)) {}
  Config c_;
};

}  // namespace onnxgate::ref
