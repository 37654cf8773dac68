// LinearAttention in double: per batch and KV head a (d_k, d_v) state, updated for each token
// and read by that head's query heads.
#include "runtime/ep/ref/kernels/nn/linear_attention.h"

#include <cmath>
#include <vector>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> LinearAttentionKernel::Create(const KernelInfo& info) {
  if (!info.has_attribute("q_num_heads") || !info.has_attribute("kv_num_heads")) {
    return InvalidArgument("the 'q_num_heads' and 'kv_num_heads' attributes are required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t q_heads, info.GetInt("q_num_heads"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t kv_heads, info.GetInt("kv_num_heads"));
  if (q_heads < 1 || kv_heads < 1 || q_heads % kv_heads != 0) {
    return InvalidArgument("'q_num_heads' (" + std::to_string(q_heads) +
                           ") must be a positive multiple of 'kv_num_heads' (" +
                           std::to_string(kv_heads) + ")");
  }
  ONNXGATE_ASSIGN_OR_RETURN(float scale, info.GetFloat("scale", 0.0f));
  if (!std::isfinite(scale)) {
    return InvalidArgument("'scale' must be finite");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t chunk, info.GetInt("chunk_size", 64));
  if (chunk < 1) {
    return InvalidArgument("'chunk_size' must be positive, got " + std::to_string(chunk));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string rule, info.GetString("update_rule", "gated_delta"));
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta") {
    return InvalidArgument(
        "'update_rule' must be 'linear', 'gated', "
        "'delta' or 'gated_delta', got '" +
        rule + "'");
  }
  const bool gated = rule == "gated" || rule == "gated_delta";
  const bool delta = rule == "delta" || rule == "gated_delta";
  return std::unique_ptr<OpKernel>(
      new LinearAttentionKernel(q_heads, kv_heads, scale, gated, delta));
}

Status LinearAttentionKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* query, GetInput(ctx, 0, "query"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* key, GetInput(ctx, 1, "key"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* value, GetInput(ctx, 2, "value"));
  const Tensor* past = ctx.input_tensor(3);
  const Tensor* decay = ctx.input_tensor(4);
  const Tensor* beta = ctx.input_tensor(5);
  const char* rule = gated_ ? (delta_ ? "gated_delta" : "gated") : (delta_ ? "delta" : "linear");
  if (gated_ != (decay != nullptr)) {
    return InvalidArgument(std::string("update_rule '") + rule +
                           (gated_ ? "' needs the decay input" : "' takes no decay input"));
  }
  if (delta_ != (beta != nullptr)) {
    return InvalidArgument(std::string("update_rule '") + rule +
                           (delta_ ? "' needs the beta input" : "' takes no beta input"));
  }
  const Shape& qs = query->shape();
  const Shape& ks = key->shape();
  const Shape& vs = value->shape();
  if (qs.rank() != 3 || ks.rank() != 3 || vs.rank() != 3) {
    return InvalidArgument("query, key and value must be 3-D (B, T, heads * size), got " +
                           qs.ToString() + ", " + ks.ToString() + ", " + vs.ToString());
  }
  const int64_t batch = qs[0], steps = qs[1];
  if (qs[2] % q_heads_ != 0 || vs[2] % kv_heads_ != 0) {
    return InvalidArgument("query " + qs.ToString() + " and value " + vs.ToString() +
                           " must split into q_num_heads = " + std::to_string(q_heads_) +
                           " and kv_num_heads = " + std::to_string(kv_heads_) + " heads");
  }
  const int64_t dk = qs[2] / q_heads_, dv = vs[2] / kv_heads_;
  if (ks != Shape({batch, steps, kv_heads_ * dk}) || vs[0] != batch || vs[1] != steps) {
    return InvalidArgument("key " + ks.ToString() + " and value " + vs.ToString() +
                           " must be (B, T, kv_num_heads * d_k) and (B, T, kv_num_heads * d_v) "
                           "for query " +
                           qs.ToString());
  }
  if (key->dtype() != query->dtype() || value->dtype() != query->dtype()) {
    return InvalidArgument("query, key and value must share one element type");
  }
  // decay per (b, t, kv head, key dim) and beta per (b, t, kv head): strides into their data.
  int64_t decay_head_stride = 0, decay_dim_stride = 0, beta_head_stride = 0;
  std::vector<double> decay_d, beta_d;
  if (decay != nullptr) {
    const Shape& ds = decay->shape();
    const bool per_head = ds == Shape({batch, steps, kv_heads_});
    const bool per_dim = ds == Shape({batch, steps, kv_heads_ * dk});
    if (decay->dtype() != query->dtype() || (!per_head && !per_dim)) {
      return InvalidArgument(
          "decay " + ds.ToString() + " must have query's type and shape (B, T, " +
          std::to_string(kv_heads_) + ") or (B, T, " + std::to_string(kv_heads_ * dk) + ")");
    }
    decay_head_stride = per_head ? 1 : dk;
    decay_dim_stride = per_head ? 0 : 1;
    ONNXGATE_ASSIGN_OR_RETURN(decay_d, ToDoubles(*decay));
  }
  if (beta != nullptr) {
    const Shape& bs = beta->shape();
    const bool per_head = bs == Shape({batch, steps, kv_heads_});
    if (beta->dtype() != query->dtype() || (!per_head && bs != Shape({batch, steps, 1}))) {
      return InvalidArgument("beta " + bs.ToString() + " must have query's type and shape (B, T, " +
                             std::to_string(kv_heads_) + ") or (B, T, 1)");
    }
    beta_head_stride = per_head ? 1 : 0;
    ONNXGATE_ASSIGN_OR_RETURN(beta_d, ToDoubles(*beta));
  }
  const Shape state_shape({batch, kv_heads_, dk, dv});
  std::vector<double> state(static_cast<size_t>(batch * kv_heads_ * dk * dv), 0.0);
  DataType state_type = query->dtype();
  if (past != nullptr) {
    if (past->shape() != state_shape) {
      return InvalidArgument("past_state " + past->shape().ToString() +
                             " must be (B, H_kv, d_k, d_v) " + state_shape.ToString());
    }
    state_type = past->dtype();
    ONNXGATE_ASSIGN_OR_RETURN(state, ToDoubles(*past));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> q, ToDoubles(*query));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> k, ToDoubles(*key));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*value));
  const double scale = scale_ != 0.0 ? scale_ : 1.0 / std::sqrt(static_cast<double>(dk));
  const int64_t group = q_heads_ / kv_heads_;
  std::vector<double> out(static_cast<size_t>(batch * steps * q_heads_ * dv), 0.0);
  const int64_t decay_row = decay != nullptr ? decay->shape()[2] : 0;
  const int64_t beta_row = beta != nullptr ? beta->shape()[2] : 0;
  std::vector<double> written(static_cast<size_t>(dv));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < kv_heads_; ++h) {
      double* s = state.data() + (b * kv_heads_ + h) * dk * dv;  // s[i * dv + j]
      for (int64_t t = 0; t < steps; ++t) {
        const int64_t bt = b * steps + t;
        const double* kt = k.data() + bt * kv_heads_ * dk + h * dk;
        const double* vt = v.data() + bt * kv_heads_ * dv + h * dv;
        if (gated_) {
          const double* g = decay_d.data() + bt * decay_row + h * decay_head_stride;
          for (int64_t i = 0; i < dk; ++i) {
            const double factor = std::exp(g[i * decay_dim_stride]);
            for (int64_t j = 0; j < dv; ++j) s[i * dv + j] *= factor;
          }
        }
        // The value written: v, or with the delta rule beta * (v - S^T k).
        for (int64_t j = 0; j < dv; ++j) {
          written[j] = vt[j];
          if (delta_) {
            double retrieved = 0.0;
            for (int64_t i = 0; i < dk; ++i) retrieved += s[i * dv + j] * kt[i];
            written[j] = beta_d[bt * beta_row + h * beta_head_stride] * (vt[j] - retrieved);
          }
        }
        for (int64_t i = 0; i < dk; ++i) {
          for (int64_t j = 0; j < dv; ++j) s[i * dv + j] += kt[i] * written[j];
        }
        // Each query head of this KV head's group reads the updated state.
        for (int64_t qh = h * group; qh < (h + 1) * group; ++qh) {
          const double* qt = q.data() + bt * q_heads_ * dk + qh * dk;
          double* o = out.data() + bt * q_heads_ * dv + qh * dv;
          for (int64_t j = 0; j < dv; ++j) {
            double acc = 0.0;
            for (int64_t i = 0; i < dk; ++i) acc += qt[i] * s[i * dv + j];
            o[j] = scale * acc;
          }
        }
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor ot,
                            FromDoubles(query->dtype(), Shape({batch, steps, q_heads_ * dv}), out));
  ctx.set_output(0, std::move(ot));
  if (ctx.num_outputs() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor st, FromDoubles(state_type, state_shape, state));
    ctx.set_output(1, std::move(st));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
