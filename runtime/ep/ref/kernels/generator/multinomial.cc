// Multinomial on std::mt19937_64: each draw is a uniform number looked up in the row's
// cumulative probabilities.
#include "runtime/ep/ref/kernels/generator/multinomial.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> Multinomial(const Tensor& logits, int64_t sample_size, DataType dtype,
                             uint64_t seed) {
  if (logits.shape().rank() != 2) {
    return InvalidArgument("input must be 2-D [batch_size, class_size], got shape " +
                           logits.shape().ToString());
  }
  const int64_t batch = logits.shape()[0];
  const int64_t classes = logits.shape()[1];
  if (classes == 0 && batch > 0) return InvalidArgument("input has no classes (class_size 0)");
  if (dtype != DataType::kInt32 && dtype != DataType::kInt64) {
    return InvalidArgument(std::string("the output type must be int32 or int64, got ") +
                           DataTypeShortName(dtype));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> x, ToDoubles(logits));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(dtype, Shape({batch, sample_size})));
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> cumulative(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    const double* row = x.data() + b * classes;
    double top = -INFINITY;
    for (int64_t j = 0; j < classes; ++j) {
      if (std::isnan(row[j]) || row[j] == INFINITY) {
        return InvalidArgument("row " + std::to_string(b) + " has a NaN or +inf logit at class " +
                               std::to_string(j));
      }
      top = std::max(top, row[j]);
    }
    if (top == -INFINITY) {
      return InvalidArgument("row " + std::to_string(b) + " gives every class probability 0");
    }
    // Shifted by the largest logit so that exp neither overflows nor underflows to all zeros.
    double sum = 0;
    for (int64_t j = 0; j < classes; ++j) {
      sum += std::exp(row[j] - top);
      cumulative[static_cast<size_t>(j)] = sum;
    }
    for (int64_t s = 0; s < sample_size; ++s) {
      const double u = uniform(engine) * sum;
      // The first class whose cumulative weight exceeds u; classes of weight 0 are never drawn.
      auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
      size_t j =
          std::min<size_t>(static_cast<size_t>(it - cumulative.begin()), cumulative.size() - 1);
      // Only when u rounds up to the total: step back to the last class of weight > 0.
      while (j > 0 && cumulative[j] == cumulative[j - 1]) --j;
      if (dtype == DataType::kInt32) {
        y.mutable_data<int32_t>()[b * sample_size + s] = static_cast<int32_t>(j);
      } else {
        y.mutable_data<int64_t>()[b * sample_size + s] = static_cast<int64_t>(j);
      }
    }
  }
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> MultinomialKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t sample_size, info.GetInt("sample_size", 1));
  if (sample_size < 1) {
    return InvalidArgument("attribute 'sample_size' = " + std::to_string(sample_size) +
                           " must be at least 1");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t dtype, info.GetInt("dtype", 6));
  if (dtype != static_cast<int64_t>(DataType::kInt32) &&
      dtype != static_cast<int64_t>(DataType::kInt64)) {
    return InvalidArgument("attribute 'dtype' = " + std::to_string(dtype) +
                           " must be 6 (int32) or 7 (int64)");
  }
  std::optional<float> seed;
  if (info.has_attribute("seed")) {
    ONNXGATE_ASSIGN_OR_RETURN(float s, info.GetFloat("seed"));
    seed = s;
  }
  return std::unique_ptr<OpKernel>(
      new MultinomialKernel(sample_size, static_cast<DataType>(dtype), seed));
}

Status MultinomialKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  uint64_t seed;
  if (seed_.has_value()) {
    uint32_t bits;
    std::memcpy(&bits, &*seed_, sizeof bits);
    seed = bits;
  } else {
    seed = std::random_device{}();
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Multinomial(*input, sample_size_, dtype_, seed));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
