// Attention in double, rounded to the element type after each step of the op's function body
// (scaled Q and K, Q*K^T, softcap, bias addition, each softmax step, the final MatMul), so that
// float16 and bfloat16 results match what the function body computes in those types.
#include "runtime/ep/ref/kernels/nn/attention.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "runtime/ep/ref/kernels/nn/precision.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

bool IsFloatType(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat ||
         t == DataType::kDouble;
}

// Q, K or V as (batch, heads, sequence, head size) in double: a 4-D input as it is, a 3-D one
// (batch, sequence, heads * head size) split into `num_heads` heads.
struct Heads {
  int64_t batch = 0, heads = 0, seq = 0, size = 0;
  std::vector<double> data;
  const double* row(int64_t b, int64_t h, int64_t s) const {
    return data.data() + ((b * heads + h) * seq + s) * size;
  }
};

StatusOr<Heads> ToHeads(const Tensor& t, const char* name, int64_t num_heads, const char* attr) {
  const Shape& s = t.shape();
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> values, ToDoubles(t));
  Heads h;
  if (s.rank() == 4) {
    h.batch = s[0];
    h.heads = s[1];
    h.seq = s[2];
    h.size = s[3];
    h.data = std::move(values);
    return h;
  }
  if (s[2] % num_heads != 0) {
    return InvalidArgument(std::string(name) + " " + s.ToString() + ": its hidden size " +
                           std::to_string(s[2]) + " is not a multiple of " + attr + " = " +
                           std::to_string(num_heads));
  }
  h.batch = s[0];
  h.heads = num_heads;
  h.seq = s[1];
  h.size = s[2] / num_heads;
  h.data.resize(values.size());
  for (int64_t b = 0; b < h.batch; ++b) {
    for (int64_t q = 0; q < h.seq; ++q) {
      for (int64_t n = 0; n < h.heads; ++n) {
        for (int64_t d = 0; d < h.size; ++d) {
          h.data[((b * h.heads + n) * h.seq + q) * h.size + d] =
              values[(b * h.seq + q) * s[2] + n * h.size + d];
        }
      }
    }
  }
  return h;
}

// past (batch, heads, past, size) followed by current along the sequence axis.
StatusOr<Heads> ConcatPast(const Tensor& past_tensor, const char* past_name, const Heads& current,
                           const char* current_name) {
  const Shape& ps = past_tensor.shape();
  if (ps.rank() != 4 || ps[0] != current.batch || ps[1] != current.heads || ps[3] != current.size) {
    return InvalidArgument(std::string(past_name) + " " + ps.ToString() + " must be (batch " +
                           std::to_string(current.batch) + ", heads " +
                           std::to_string(current.heads) + ", past length, head size " +
                           std::to_string(current.size) + ") to match " + current_name);
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> past, ToDoubles(past_tensor));
  Heads out = current;
  out.seq = ps[2] + current.seq;
  out.data.assign(static_cast<size_t>(out.batch * out.heads * out.seq * out.size), 0.0);
  for (int64_t b = 0; b < out.batch; ++b) {
    for (int64_t n = 0; n < out.heads; ++n) {
      for (int64_t s = 0; s < out.seq; ++s) {
        const double* src = s < ps[2] ? past.data() + ((b * ps[1] + n) * ps[2] + s) * ps[3]
                                      : current.row(b, n, s - ps[2]);
        double* dst = out.data.data() + ((b * out.heads + n) * out.seq + s) * out.size;
        for (int64_t d = 0; d < out.size; ++d) dst[d] = src[d];
      }
    }
  }
  return out;
}

// attn_mask as an additive bias over (batch, q_heads, q_len, total_len): broadcast from the
// right, a shorter key axis padded with disallowed positions, bool False as -inf.
class MaskBias {
 public:
  static StatusOr<MaskBias> Make(const Tensor* mask, const std::vector<int64_t>& target,
                                 DataType t1) {
    MaskBias m;
    if (mask == nullptr) return m;
    const Shape& s = mask->shape();
    if (s.rank() < 1 || s.rank() > 4) {
      return InvalidArgument("attn_mask " + s.ToString() +
                             " must have rank 1 to 4, broadcasting to (batch, q_num_heads, "
                             "q_sequence_length, total_sequence_length) " +
                             ListToString(target));
    }
    const size_t offset = 4 - s.rank();
    m.strides_.assign(4, 0);
    const std::vector<int64_t> strides = s.Strides();
    for (size_t i = 0; i < s.rank(); ++i) {
      const size_t axis = offset + i;
      const bool ok = axis == 3 ? s[i] <= target[3] : (s[i] == target[axis] || s[i] == 1);
      if (!ok) {
        return InvalidArgument("attn_mask " + s.ToString() + " does not broadcast to " +
                               ListToString(target) +
                               " (its last axis may be shorter than the total sequence length, "
                               "every other axis must match or be 1)");
      }
      if (s[i] != 1 || axis == 3) m.strides_[axis] = strides[i];
    }
    m.key_len_ = s[s.rank() - 1];
    m.present_ = true;
    if (mask->dtype() == DataType::kBool) {
      const bool* data = mask->data<bool>();
      m.values_.resize(static_cast<size_t>(mask->NumElements()));
      for (size_t i = 0; i < m.values_.size(); ++i) m.values_[i] = data[i] ? 0.0 : kNegInf;
    } else {
      ONNXGATE_ASSIGN_OR_RETURN(m.values_, ToDoubles(*mask));
      for (double& v : m.values_) v = RoundToPrecision(t1, v);
    }
    return m;
  }

  double at(int64_t b, int64_t h, int64_t i, int64_t j) const {
    if (!present_) return 0.0;
    if (j >= key_len_) return kNegInf;
    return values_[b * strides_[0] + h * strides_[1] + i * strides_[2] + j * strides_[3]];
  }

 private:
  bool present_ = false;
  int64_t key_len_ = 0;
  std::vector<int64_t> strides_;
  std::vector<double> values_;
};

// Shapes whose double buffers the kernel holds must stay within the output size limit.
Status CheckSize(const Shape& shape, const char* what) {
  Status st = shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double)));
  if (!st.ok())
    return InvalidArgument(std::string(what) + " " + shape.ToString() + ": " + st.message());
  return OkStatus();
}

StatusOr<std::optional<int64_t>> OptionalPositiveInt(const KernelInfo& info, const char* name) {
  if (!info.has_attribute(name)) return std::optional<int64_t>();
  ONNXGATE_ASSIGN_OR_RETURN(int64_t v, info.GetInt(name));
  if (v < 1) {
    return InvalidArgument(std::string("'") + name + "' must be positive, got " +
                           std::to_string(v));
  }
  return std::optional<int64_t>(v);
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> AttentionKernel::Create(const KernelInfo& info) {
  AttentionAttributes a;
  const int version = info.since_version();
  ONNXGATE_ASSIGN_OR_RETURN(int64_t causal, info.GetInt("is_causal", 0));
  if (causal != 0 && causal != 1) {
    return InvalidArgument("'is_causal' must be 0 or 1, got " + std::to_string(causal));
  }
  a.is_causal = causal == 1;
  ONNXGATE_ASSIGN_OR_RETURN(a.q_num_heads, OptionalPositiveInt(info, "q_num_heads"));
  ONNXGATE_ASSIGN_OR_RETURN(a.kv_num_heads, OptionalPositiveInt(info, "kv_num_heads"));
  ONNXGATE_ASSIGN_OR_RETURN(a.qk_matmul_output_mode, info.GetInt("qk_matmul_output_mode", 0));
  if (a.qk_matmul_output_mode < 0 || a.qk_matmul_output_mode > 3) {
    return InvalidArgument("'qk_matmul_output_mode' must be 0, 1, 2 or 3, got " +
                           std::to_string(a.qk_matmul_output_mode));
  }
  if (info.has_attribute("scale")) {
    ONNXGATE_ASSIGN_OR_RETURN(float scale, info.GetFloat("scale"));
    // Q and K are each multiplied by sqrt(scale).
    if (!(scale >= 0.0f)) {
      return InvalidArgument(
          "'scale' must be non-negative (Q and K are "
          "scaled by its square root), got " +
          std::to_string(scale));
    }
    a.scale = scale;
  }
  ONNXGATE_ASSIGN_OR_RETURN(float softcap, info.GetFloat("softcap", 0.0f));
  if (!(softcap >= 0.0f)) {
    return InvalidArgument("'softcap' must be non-negative (0 disables it), got " +
                           std::to_string(softcap));
  }
  a.softcap = softcap;
  if (info.has_attribute("softmax_precision")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t p, info.GetInt("softmax_precision"));
    const DataType t = static_cast<DataType>(p);
    if (p != static_cast<int64_t>(DataType::kFloat) &&
        p != static_cast<int64_t>(DataType::kFloat16) &&
        p != static_cast<int64_t>(DataType::kDouble) &&
        p != static_cast<int64_t>(DataType::kBFloat16)) {
      return InvalidArgument(
          "'softmax_precision' must be 1 (float), 10 (float16), 11 (double) "
          "or 16 (bfloat16), got " +
          std::to_string(p));
    }
    a.softmax_precision = t;
  }
  if (version >= 25) {
    ONNXGATE_ASSIGN_OR_RETURN(a.left_window_size, info.GetInt("left_window_size", -1));
    ONNXGATE_ASSIGN_OR_RETURN(a.right_window_size, info.GetInt("right_window_size", -1));
    if (a.left_window_size < -1 || a.right_window_size < -1) {
      return InvalidArgument(
          "'left_window_size' and 'right_window_size' must be -1 "
          "(unbounded) or non-negative, got " +
          std::to_string(a.left_window_size) + " and " + std::to_string(a.right_window_size));
    }
  }
  return std::unique_ptr<OpKernel>(new AttentionKernel(version, a));
}

Status AttentionKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* q_in, GetInput(ctx, 0, "Q"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* k_in, GetInput(ctx, 1, "K"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* v_in, GetInput(ctx, 2, "V"));
  const Tensor* mask = ctx.input_tensor(3);
  const Tensor* past_key = ctx.input_tensor(4);
  const Tensor* past_value = ctx.input_tensor(5);
  const Tensor* nonpad = version_ >= 24 ? ctx.input_tensor(6) : nullptr;

  const DataType t1 = q_in->dtype();
  const DataType t2 = v_in->dtype();
  if (!IsFloatType(t1) || !IsFloatType(t2) || k_in->dtype() != t1) {
    return InvalidArgument(std::string("Q and K must share a floating-point type and V must be "
                                       "floating-point, got Q ") +
                           DataTypeShortName(t1) + ", K " + DataTypeShortName(k_in->dtype()) +
                           ", V " + DataTypeShortName(t2));
  }
  const size_t rank = q_in->shape().rank();
  if ((rank != 3 && rank != 4) || k_in->shape().rank() != rank || v_in->shape().rank() != rank) {
    return InvalidArgument("Q, K and V must all be 3-D or all 4-D, got Q " +
                           q_in->shape().ToString() + ", K " + k_in->shape().ToString() + ", V " +
                           v_in->shape().ToString());
  }
  if (rank == 3 && (!attrs_.q_num_heads || !attrs_.kv_num_heads)) {
    return InvalidArgument("3-D Q, K and V need the 'q_num_heads' and 'kv_num_heads' attributes");
  }
  if (rank == 4 && (attrs_.q_num_heads || attrs_.kv_num_heads)) {
    if (version_ >= 25) {
      return InvalidArgument("'q_num_heads' and 'kv_num_heads' must not be given with 4-D inputs");
    }
    if ((attrs_.q_num_heads && *attrs_.q_num_heads != q_in->shape()[1]) ||
        (attrs_.kv_num_heads && *attrs_.kv_num_heads != k_in->shape()[1])) {
      return InvalidArgument(
          "'q_num_heads' and 'kv_num_heads' contradict the head axes of the "
          "4-D Q " +
          q_in->shape().ToString() + " and K " + k_in->shape().ToString());
    }
  }
  const int64_t q_heads_attr = attrs_.q_num_heads.value_or(1);
  const int64_t kv_heads_attr = attrs_.kv_num_heads.value_or(1);
  ONNXGATE_ASSIGN_OR_RETURN(Heads q, ToHeads(*q_in, "Q", q_heads_attr, "q_num_heads"));
  ONNXGATE_ASSIGN_OR_RETURN(Heads k, ToHeads(*k_in, "K", kv_heads_attr, "kv_num_heads"));
  ONNXGATE_ASSIGN_OR_RETURN(Heads v, ToHeads(*v_in, "V", kv_heads_attr, "kv_num_heads"));
  if (k.batch != q.batch || v.batch != q.batch || k.heads != v.heads || k.seq != v.seq ||
      k.size != q.size) {
    return InvalidArgument("Q " + q_in->shape().ToString() + ", K " + k_in->shape().ToString() +
                           " and V " + v_in->shape().ToString() +
                           " disagree on batch size, KV heads, KV sequence length or head size");
  }
  if (k.heads < 1 || q.heads % k.heads != 0) {
    return InvalidArgument("the " + std::to_string(q.heads) +
                           " query heads are not a multiple of the " + std::to_string(k.heads) +
                           " key/value heads");
  }

  // The internal KV cache.
  if ((past_key == nullptr) != (past_value == nullptr)) {
    return InvalidArgument("past_key and past_value must be given together");
  }
  int64_t past_len = 0;
  if (past_key != nullptr) {
    if (past_key->dtype() != t1 || past_value->dtype() != t2) {
      return InvalidArgument(std::string("past_key must have Q's type and past_value V's, got ") +
                             DataTypeShortName(past_key->dtype()) + " and " +
                             DataTypeShortName(past_value->dtype()));
    }
    if (past_key->shape().rank() != 4 || past_value->shape().rank() != 4 ||
        past_key->shape()[2] != past_value->shape()[2]) {
      return InvalidArgument("past_key " + past_key->shape().ToString() + " and past_value " +
                             past_value->shape().ToString() +
                             " must be 4-D with the same past sequence length");
    }
    past_len = past_key->shape()[2];
    ONNXGATE_ASSIGN_OR_RETURN(k, ConcatPast(*past_key, "past_key", k, "K"));
    ONNXGATE_ASSIGN_OR_RETURN(v, ConcatPast(*past_value, "past_value", v, "V"));
  }
  const int64_t batch = q.batch, q_heads = q.heads, q_len = q.seq, total = k.seq;
  const int64_t group = q_heads / k.heads;

  // The external KV cache: valid keys per batch.
  std::vector<int64_t> valid_keys;
  if (nonpad != nullptr) {
    if (past_key != nullptr) {
      return InvalidArgument("nonpad_kv_seqlen cannot be combined with past_key and past_value");
    }
    if (nonpad->dtype() != DataType::kInt64 || nonpad->shape() != Shape({batch})) {
      return InvalidArgument(std::string("nonpad_kv_seqlen must be int64 of shape (batch_size) [") +
                             std::to_string(batch) + "], got " +
                             DataTypeShortName(nonpad->dtype()) + nonpad->shape().ToString());
    }
    const int64_t* n = nonpad->data<int64_t>();
    valid_keys.assign(n, n + batch);
    for (int64_t b = 0; b < batch; ++b) {
      if (valid_keys[b] < 0 || valid_keys[b] > total) {
        return InvalidArgument("nonpad_kv_seqlen[" + std::to_string(b) +
                               "] = " + std::to_string(valid_keys[b]) + " is outside [0, " +
                               std::to_string(total) + "], the KV sequence length");
      }
    }
  }
  const std::vector<int64_t> score_dims = {batch, q_heads, q_len, total};
  ONNXGATE_RETURN_IF_ERROR(CheckSize(Shape(score_dims), "qk_matmul_output"));
  ONNXGATE_ASSIGN_OR_RETURN(MaskBias mask_bias, MaskBias::Make(mask, score_dims, t1));

  // The count of valid keys before the query block, which aligns the causal and window masks.
  auto offset_of = [&](int64_t b) -> int64_t {
    if (past_key != nullptr) return past_len;
    if (!valid_keys.empty()) return valid_keys[b] - q_len;
    return 0;
  };
  const bool windowed = attrs_.left_window_size >= 0 || attrs_.right_window_size >= 0;

  const double scale = attrs_.scale ? *attrs_.scale : 1.0 / std::sqrt(static_cast<double>(q.size));
  const double root = RoundToPrecision(t1, std::sqrt(scale));
  for (double& x : q.data) x = RoundToPrecision(t1, x * root);
  std::vector<double> k_scaled = k.data;
  for (double& x : k_scaled) x = RoundToPrecision(t1, x * root);
  const DataType softmax_type = attrs_.softmax_precision.value_or(t1);
  auto r1 = [&](double x) { return RoundToPrecision(t1, x); };
  auto rs = [&](double x) { return RoundToPrecision(softmax_type, x); };

  std::vector<double> y(static_cast<size_t>(batch * q_heads * q_len * v.size), 0.0);
  std::vector<double> qk_out(static_cast<size_t>(batch * q_heads * q_len * total), 0.0);
  std::vector<double> bias(static_cast<size_t>(total)), capped(bias.size()), probs(bias.size());
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t offset = offset_of(b);
    for (int64_t h = 0; h < q_heads; ++h) {
      const int64_t kv_h = h / group;
      for (int64_t i = 0; i < q_len; ++i) {
        double* qk_row = qk_out.data() + ((b * q_heads + h) * q_len + i) * total;
        const double* q_row = q.row(b, h, i);
        // The additive bias: attn_mask, the causal frontier, the window, the padding.
        double bias_max = kNegInf;
        for (int64_t j = 0; j < total; ++j) {
          double bj = mask_bias.at(b, h, i, j);
          if (attrs_.is_causal && j > i + offset) bj += kNegInf;
          if (windowed) {
            const int64_t diff = i + offset - j;
            if ((attrs_.left_window_size >= 0 && diff > attrs_.left_window_size) ||
                (attrs_.right_window_size >= 0 && -diff > attrs_.right_window_size)) {
              bj += kNegInf;
            }
          }
          if (!valid_keys.empty() && j >= valid_keys[b]) bj += kNegInf;
          bias[j] = r1(bj);
          bias_max = (std::isnan(bias_max) || std::isnan(bias[j])) ? std::nan("")
                                                                   : std::max(bias_max, bias[j]);
        }
        // Scores, softcap, bias.
        double score_max = kNegInf;
        for (int64_t j = 0; j < total; ++j) {
          const double* k_row = k_scaled.data() + ((b * k.heads + kv_h) * total + j) * k.size;
          double dot = 0.0;
          for (int64_t d = 0; d < q.size; ++d) dot += q_row[d] * k_row[d];
          const double raw = r1(dot);
          capped[j] = attrs_.softcap > 0
                          ? r1(attrs_.softcap * r1(std::tanh(r1(raw / attrs_.softcap))))
                          : raw;
          const double with_bias = r1(capped[j] + bias[j]);
          if (attrs_.qk_matmul_output_mode == 0) qk_row[j] = raw;
          if (attrs_.qk_matmul_output_mode == 1) qk_row[j] = capped[j];
          if (attrs_.qk_matmul_output_mode == 2) qk_row[j] = with_bias;
          probs[j] = rs(with_bias);
          score_max = (std::isnan(score_max) || std::isnan(probs[j]))
                          ? std::nan("")
                          : std::max(score_max, probs[j]);
        }
        // Softmax in softmax_precision; a row that is -inf throughout gives zeros, not NaN.
        const double shift = score_max == kNegInf ? 0.0 : score_max;
        // A bfloat16 sum is accumulated in bfloat16, each addition rounded, as numpy's
        // bfloat16 ReduceSum (the reference's) does; the other types accumulate wider.
        const bool narrow_sum = softmax_type == DataType::kBFloat16;
        double sum = 0.0;
        for (int64_t j = 0; j < total; ++j) {
          probs[j] = rs(std::exp(rs(probs[j] - shift)));
          sum = narrow_sum ? rs(sum + probs[j]) : sum + probs[j];
        }
        sum = rs(sum);
        if (sum == 0.0) sum = 1.0;
        // A row whose bias disallows every key is a zero row.
        const bool fully_masked = bias_max == kNegInf;
        for (int64_t j = 0; j < total; ++j) {
          probs[j] = fully_masked ? 0.0 : r1(rs(probs[j] / sum));
          if (attrs_.qk_matmul_output_mode == 3) qk_row[j] = probs[j];
        }
        double* y_row = y.data() + ((b * q_heads + h) * q_len + i) * v.size;
        for (int64_t d = 0; d < v.size; ++d) {
          double acc = 0.0;
          for (int64_t j = 0; j < total; ++j) acc += probs[j] * v.row(b, kv_h, j)[d];
          y_row[d] = r1(acc);
        }
      }
    }
  }

  if (rank == 3) {
    // (batch, heads, q_len, v_size) -> (batch, q_len, heads * v_size)
    std::vector<double> packed(y.size());
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t h = 0; h < q_heads; ++h) {
        for (int64_t i = 0; i < q_len; ++i) {
          for (int64_t d = 0; d < v.size; ++d) {
            packed[((b * q_len + i) * q_heads + h) * v.size + d] =
                y[((b * q_heads + h) * q_len + i) * v.size + d];
          }
        }
      }
    }
    y = std::move(packed);
  }
  const Shape y_shape =
      rank == 3 ? Shape({batch, q_len, q_heads * v.size}) : Shape({batch, q_heads, q_len, v.size});
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y_tensor, FromDoubles(t1, y_shape, y));
  ctx.set_output(0, std::move(y_tensor));
  if (ctx.num_outputs() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t,
                              FromDoubles(t1, Shape({batch, k.heads, total, k.size}), k.data));
    ctx.set_output(1, std::move(t));
  }
  if (ctx.num_outputs() > 2) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t,
                              FromDoubles(t2, Shape({batch, v.heads, total, v.size}), v.data));
    ctx.set_output(2, std::move(t));
  }
  if (ctx.num_outputs() > 3) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(t1, Shape(score_dims), qk_out));
    ctx.set_output(3, std::move(t));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
