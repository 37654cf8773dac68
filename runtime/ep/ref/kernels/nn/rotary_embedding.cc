// RotaryEmbedding: x1' = cos * x1 - sin * x2 and x2' = sin * x1 + cos * x2 for each rotated
// pair, each product and sum rounded to the element type as the function body computes them.
#include "runtime/ep/ref/kernels/nn/rotary_embedding.h"

#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/nn/precision.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> RotaryEmbeddingKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t interleaved, info.GetInt("interleaved", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t rotary_dim, info.GetInt("rotary_embedding_dim", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t num_heads, info.GetInt("num_heads", 0));
  if (interleaved != 0 && interleaved != 1) {
    return InvalidArgument("'interleaved' must be 0 or 1, got " + std::to_string(interleaved));
  }
  if (rotary_dim < 0 || rotary_dim % 2 != 0) {
    return InvalidArgument("'rotary_embedding_dim' must be even and non-negative, got " +
                           std::to_string(rotary_dim));
  }
  if (num_heads < 0 || (info.has_attribute("num_heads") && num_heads == 0)) {
    return InvalidArgument("'num_heads' must be positive, got " + std::to_string(num_heads));
  }
  return std::unique_ptr<OpKernel>(
      new RotaryEmbeddingKernel(interleaved == 1, rotary_dim, num_heads));
}

Status RotaryEmbeddingKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* cos_cache, GetInput(ctx, 1, "cos_cache"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* sin_cache, GetInput(ctx, 2, "sin_cache"));
  const Tensor* position_ids = ctx.input_tensor(3);
  const Shape& xs = x->shape();
  const DataType type = x->dtype();
  if (cos_cache->dtype() != type || sin_cache->dtype() != type) {
    return InvalidArgument("cos_cache and sin_cache must have X's type " +
                           std::string(DataTypeShortName(type)));
  }
  // The layout of X: element (b, s, h, d) sits at b * sb + s * ss + h * sh + d.
  int64_t batch, seq, heads, head_size, sb, ss, sh;
  if (xs.rank() == 4) {
    batch = xs[0];
    heads = xs[1];
    seq = xs[2];
    head_size = xs[3];
    sh = seq * head_size;
    ss = head_size;
    sb = heads * seq * head_size;
  } else if (xs.rank() == 3) {
    if (num_heads_ == 0) {
      return InvalidArgument("a 3-D X " + xs.ToString() + " needs the 'num_heads' attribute");
    }
    if (xs[2] % num_heads_ != 0) {
      return InvalidArgument("the hidden size of X " + xs.ToString() +
                             " is not a multiple of num_heads = " + std::to_string(num_heads_));
    }
    batch = xs[0];
    seq = xs[1];
    heads = num_heads_;
    head_size = xs[2] / num_heads_;
    sh = head_size;
    ss = xs[2];
    sb = seq * xs[2];
  } else {
    return InvalidArgument("X must be 3-D or 4-D, got " + xs.ToString());
  }
  const int64_t rotary = rotary_dim_ == 0 ? head_size : rotary_dim_;
  if (rotary > head_size || rotary % 2 != 0) {
    return InvalidArgument("the rotary dimension " + std::to_string(rotary) +
                           " must be even and at most the head size " + std::to_string(head_size));
  }
  const int64_t half = rotary / 2;
  // For each (b, s): the row of the caches holding its angles.
  std::vector<int64_t> cache_row(static_cast<size_t>(batch * seq));
  if (position_ids != nullptr) {
    if (position_ids->dtype() != DataType::kInt64 || position_ids->shape() != Shape({batch, seq})) {
      return InvalidArgument(std::string("position_ids must be int64 of shape (batch_size, "
                                         "sequence_length) [") +
                             std::to_string(batch) + "," + std::to_string(seq) + "], got " +
                             DataTypeShortName(position_ids->dtype()) +
                             position_ids->shape().ToString());
    }
    if (cos_cache->shape().rank() != 2 || cos_cache->shape()[1] != half) {
      return InvalidArgument("with position_ids, cos_cache " + cos_cache->shape().ToString() +
                             " must be (max_position_id_plus_1, " + std::to_string(half) + ")");
    }
    const int64_t positions = cos_cache->shape()[0];
    const int64_t* ids = position_ids->data<int64_t>();
    for (size_t i = 0; i < cache_row.size(); ++i) {
      if (ids[i] < 0 || ids[i] >= positions) {
        return InvalidArgument("position_ids[" + std::to_string(i) +
                               "] = " + std::to_string(ids[i]) + " is outside the " +
                               std::to_string(positions) + " rows of cos_cache");
      }
      cache_row[i] = ids[i];
    }
  } else {
    if (cos_cache->shape() != Shape({batch, seq, half})) {
      return InvalidArgument("without position_ids, cos_cache " + cos_cache->shape().ToString() +
                             " must be (batch_size, sequence_length, rotary_dim / 2) [" +
                             std::to_string(batch) + "," + std::to_string(seq) + "," +
                             std::to_string(half) + "]");
    }
    for (size_t i = 0; i < cache_row.size(); ++i) cache_row[i] = static_cast<int64_t>(i);
  }
  if (sin_cache->shape() != cos_cache->shape()) {
    return InvalidArgument("sin_cache " + sin_cache->shape().ToString() +
                           " must have the shape of cos_cache " + cos_cache->shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> cd, ToDoubles(*cos_cache));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> sd, ToDoubles(*sin_cache));
  auto r = [&](double v) { return ref::RoundToPrecision(type, v); };
  std::vector<double> y = xd;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      const double* c = cd.data() + cache_row[b * seq + s] * half;
      const double* sn = sd.data() + cache_row[b * seq + s] * half;
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t base = b * sb + s * ss + h * sh;
        for (int64_t i = 0; i < half; ++i) {
          const int64_t first = base + (interleaved_ ? 2 * i : i);
          const int64_t second = base + (interleaved_ ? 2 * i + 1 : i + half);
          const double x1 = xd[first], x2 = xd[second];
          y[first] = r(r(c[i] * x1) - r(sn[i] * x2));
          y[second] = r(r(sn[i] * x1) + r(c[i] * x2));
        }
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(type, xs, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
