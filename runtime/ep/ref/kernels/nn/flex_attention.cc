// FlexAttention in double, rounded to the input type for the scaled Q, K and their product and
// to softmax_precision for the softmax, the modifiers' tensors and the final product, as the
// op's function body computes them.
#include "runtime/ep/ref/kernels/nn/flex_attention.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"
#include "runtime/ep/ref/kernels/nn/precision.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

bool IsFloatType(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat ||
         t == DataType::kDouble;
}

StatusOr<std::shared_ptr<const SubgraphExecutor>> CompileModifier(const KernelInfo& info,
                                                                  const char* name) {
  if (!info.has_attribute(name)) return std::shared_ptr<const SubgraphExecutor>();
  ONNXGATE_ASSIGN_OR_RETURN(auto graph, info.CompileSubgraph(name));
  if (graph->input_names().size() != 1 || graph->output_names().size() != 1) {
    return InvalidArgument(std::string("'") + name +
                           "' must have exactly 1 input and 1 "
                           "output, it has " +
                           std::to_string(graph->input_names().size()) + " and " +
                           std::to_string(graph->output_names().size()));
  }
  return std::shared_ptr<const SubgraphExecutor>(std::move(graph));
}

// Runs a modifier on `values` (of `shape`, held as `type`) and returns its output's values
// rounded to `type`; the output must be a tensor of the same shape.
Status ApplyModifier(const SubgraphExecutor& graph, const char* name, const KernelContext& ctx,
                     DataType type, const Shape& shape, std::vector<double>& values) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor in, FromDoubles(type, shape, values));
  auto outputs = graph.Run({Value::FromTensor(std::move(in))}, OuterScopeOf(ctx));
  if (!outputs.ok()) return outputs.status().WithContext(name);
  if (outputs->size() != 1 || !(*outputs)[0].is_tensor() ||
      (*outputs)[0].tensor().shape() != shape) {
    return InvalidArgument(std::string(name) + " must return one tensor of shape " +
                           shape.ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(values, ToDoubles((*outputs)[0].tensor()));
  for (double& v : values) v = ref::RoundToPrecision(type, v);
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> FlexAttentionKernel::Create(const KernelInfo& info) {
  std::optional<double> scale;
  if (info.has_attribute("scale")) {
    ONNXGATE_ASSIGN_OR_RETURN(float s, info.GetFloat("scale"));
    if (!(s >= 0.0f)) {
      return InvalidArgument(
          "'scale' must be non-negative (Q and K are "
          "scaled by its square root), got " +
          std::to_string(s));
    }
    scale = s;
  }
  std::optional<DataType> precision;
  if (info.has_attribute("softmax_precision")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t p, info.GetInt("softmax_precision"));
    const DataType t = static_cast<DataType>(p);
    if (p < 0 || p > 26 || !IsFloatType(t)) {
      return InvalidArgument(
          "'softmax_precision' must be 1 (float), 10 (float16), 11 (double) "
          "or 16 (bfloat16), got " +
          std::to_string(p));
    }
    precision = t;
  }
  ONNXGATE_ASSIGN_OR_RETURN(auto score_mod, CompileModifier(info, "score_mod"));
  ONNXGATE_ASSIGN_OR_RETURN(auto prob_mod, CompileModifier(info, "prob_mod"));
  return std::unique_ptr<OpKernel>(
      new FlexAttentionKernel(scale, precision, std::move(score_mod), std::move(prob_mod)));
}

Status FlexAttentionKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* q_in, GetInput(ctx, 0, "Q"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* k_in, GetInput(ctx, 1, "K"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* v_in, GetInput(ctx, 2, "V"));
  const DataType type = q_in->dtype();
  if (k_in->dtype() != type || v_in->dtype() != type || !IsFloatType(type)) {
    return InvalidArgument("Q, K and V must share one floating-point type");
  }
  const Shape& qs = q_in->shape();
  const Shape& ks = k_in->shape();
  const Shape& vs = v_in->shape();
  if (qs.rank() != 4 || ks.rank() != 4 || vs.rank() != 4) {
    return InvalidArgument("Q, K and V must be 4-D, got " + qs.ToString() + ", " + ks.ToString() +
                           ", " + vs.ToString());
  }
  const int64_t batch = qs[0], q_heads = qs[1], q_len = qs[2], size = qs[3];
  const int64_t kv_heads = ks[1], kv_len = ks[2], v_size = vs[3];
  if (ks[0] != batch || vs[0] != batch || vs[1] != kv_heads || vs[2] != kv_len || ks[3] != size ||
      kv_heads < 1 || q_heads % kv_heads != 0) {
    return InvalidArgument("Q " + qs.ToString() + ", K " + ks.ToString() + " and V " +
                           vs.ToString() +
                           " must share batch size, KV heads, KV length and head size, with the "
                           "query heads a multiple of the KV heads");
  }
  const DataType softmax_type =
      softmax_precision_.value_or(type == DataType::kDouble ? DataType::kDouble : DataType::kFloat);
  const Shape score_shape({batch, q_heads, q_len, kv_len});
  Status size_ok = score_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!size_ok.ok())
    return InvalidArgument("the scores " + score_shape.ToString() + " are too large");
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> q, ToDoubles(*q_in));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> k, ToDoubles(*k_in));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*v_in));
  auto r = [&](double x) { return ref::RoundToPrecision(type, x); };
  auto rs = [&](double x) { return ref::RoundToPrecision(softmax_type, x); };
  // sqrt(scale) is taken in float and rounded to the input type.
  const double scale = scale_ ? *scale_ : 1.0 / std::sqrt(static_cast<double>(size));
  const double root = r(std::sqrt(static_cast<float>(scale)));
  for (double& x : q) x = r(x * root);
  for (double& x : k) x = r(x * root);
  const int64_t group = q_heads / kv_heads;

  std::vector<double> scores(static_cast<size_t>(score_shape.NumElements()));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < q_heads; ++h) {
      const int64_t kv_h = h / group;
      for (int64_t i = 0; i < q_len; ++i) {
        const double* q_row = q.data() + ((b * q_heads + h) * q_len + i) * size;
        for (int64_t j = 0; j < kv_len; ++j) {
          const double* k_row = k.data() + ((b * kv_heads + kv_h) * kv_len + j) * size;
          double dot = 0.0;
          for (int64_t d = 0; d < size; ++d) dot += q_row[d] * k_row[d];
          scores[((b * q_heads + h) * q_len + i) * kv_len + j] = rs(r(dot));
        }
      }
    }
  }
  if (score_mod_) {
    ONNXGATE_RETURN_IF_ERROR(
        ApplyModifier(*score_mod_, "score_mod", ctx, softmax_type, score_shape, scores));
  }
  // Softmax over the keys of each row.
  for (int64_t row = 0; row < batch * q_heads * q_len; ++row) {
    double* s = scores.data() + row * kv_len;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < kv_len; ++j)
      m = std::isnan(m) || std::isnan(s[j]) ? std::nan("") : std::max(m, s[j]);
    double sum = 0.0;
    for (int64_t j = 0; j < kv_len; ++j) {
      s[j] = rs(std::exp(rs(s[j] - m)));
      sum += s[j];
    }
    sum = rs(sum);
    for (int64_t j = 0; j < kv_len; ++j) s[j] = rs(s[j] / sum);
  }
  if (prob_mod_) {
    ONNXGATE_RETURN_IF_ERROR(
        ApplyModifier(*prob_mod_, "prob_mod", ctx, softmax_type, score_shape, scores));
  }
  std::vector<double> y(static_cast<size_t>(batch * q_heads * q_len * v_size));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < q_heads; ++h) {
      const int64_t kv_h = h / group;
      for (int64_t i = 0; i < q_len; ++i) {
        const double* p = scores.data() + ((b * q_heads + h) * q_len + i) * kv_len;
        for (int64_t d = 0; d < v_size; ++d) {
          double acc = 0.0;
          for (int64_t j = 0; j < kv_len; ++j) {
            acc += p[j] * rs(v[((b * kv_heads + kv_h) * kv_len + j) * v_size + d]);
          }
          y[((b * q_heads + h) * q_len + i) * v_size + d] = rs(acc);
        }
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt,
                            FromDoubles(type, Shape({batch, q_heads, q_len, v_size}), y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
