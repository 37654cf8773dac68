// LabelEncoder (ai.onnx.ml 2 and 4): maps every element of x through the parallel 'keys_*' and
// 'values_*' attributes, giving the default of the values' type to elements without a key.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class LabelEncoderKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  // The keys as a lookup from key to position in `values_`, by the keys' kind.
  struct Lookup {
    DataType key_type = DataType::kUndefined;
    std::map<std::string, int64_t> strings;
    std::map<int64_t, int64_t> integers;
    // Version 4 compares floats by value (-0 equals 0) and lets a NaN key match every NaN;
    // version 2 compares their bits.
    std::map<double, int64_t> floats;
    std::optional<int64_t> nan;
    std::map<uint64_t, int64_t> float_bits;
  };

  LabelEncoderKernel(bool bitwise_floats, Lookup lookup, Tensor values, Tensor default_value)
      : bitwise_floats_(bitwise_floats),
        lookup_(std::move(lookup)),
        values_(std::move(values)),
        default_(std::move(default_value)) {}

  // The position of x's element i among the keys, or -1.
  int64_t Find(const Tensor& x, int64_t i) const;

  bool bitwise_floats_;
  Lookup lookup_;
  Tensor values_;   // 1-D, of the output type
  Tensor default_;  // one element of the output type
};

}  // namespace onnxgate::ref
