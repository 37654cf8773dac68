// Shared parts of RNN, GRU and LSTM.
#include "runtime/ep/ref/kernels/rnn/recurrent.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "runtime/provider/common/compute_type.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

namespace {

struct ActivationSpec {
  const char* name;  // lower case
  RnnActivation::Kind kind;
  int params;          // 0: none, 1: alpha, 2: alpha and beta
  double alpha, beta;  // defaults, as the ONNX operators of the same name define them
};

constexpr ActivationSpec kActivations[] = {
    {"relu", RnnActivation::Kind::kRelu, 0, 0, 0},
    {"tanh", RnnActivation::Kind::kTanh, 0, 0, 0},
    {"sigmoid", RnnActivation::Kind::kSigmoid, 0, 0, 0},
    {"affine", RnnActivation::Kind::kAffine, 2, 1.0, 0.0},
    {"leakyrelu", RnnActivation::Kind::kLeakyRelu, 1, 0.01, 0},
    {"thresholdedrelu", RnnActivation::Kind::kThresholdedRelu, 1, 1.0, 0},
    {"scaledtanh", RnnActivation::Kind::kScaledTanh, 2, 1.0, 1.0},
    {"hardsigmoid", RnnActivation::Kind::kHardSigmoid, 2, 0.2, 0.5},
    {"elu", RnnActivation::Kind::kElu, 1, 1.0, 0},
    {"softsign", RnnActivation::Kind::kSoftsign, 0, 0, 0},
    {"softplus", RnnActivation::Kind::kSoftplus, 0, 0, 0},
};

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The elements of a float tensor of type `dtype` as doubles.
StatusOr<std::vector<double>> ToDoubles(const Tensor& t, DataType dtype, const char* name) {
  if (t.dtype() != dtype) {
    return InvalidArgument(std::string("'") + name + "' has type " + DataTypeShortName(t.dtype()) +
                           ", expected " + DataTypeShortName(dtype) + " like X");
  }
  std::vector<double> out(static_cast<size_t>(t.NumElements()));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(ToCompute(p[i]));
    return OkStatus();
  }));
  return out;
}

Status CheckShape(const Tensor& t, const char* name, const std::vector<int64_t>& expected) {
  if (t.shape().dims() != expected) {
    return InvalidArgument(std::string("'") + name + "' has shape " + t.shape().ToString() +
                           ", expected " + ListToString(expected));
  }
  return OkStatus();
}

// [a, b, c] -> [b, a, c]: converts between the two layouts of X, initial_h and initial_c.
std::vector<double> SwapLeadingDims(const std::vector<double>& v, int64_t a, int64_t b, int64_t c) {
  std::vector<double> out(v.size());
  for (int64_t i = 0; i < a; ++i) {
    for (int64_t j = 0; j < b; ++j) {
      std::copy_n(v.begin() + (i * b + j) * c, c, out.begin() + (j * a + i) * c);
    }
  }
  return out;
}

// An optional state input ([dirs, batch, hidden] or, in layout 1, [batch, dirs, hidden]).
StatusOr<std::vector<double>> ReadState(const KernelContext& ctx, size_t index, const char* name,
                                        const RecurrentConfig& cfg, const RecurrentInputs& in) {
  const int64_t dirs = in.num_directions;
  if (!ctx.has_input(index)) {
    return std::vector<double>(static_cast<size_t>(dirs * in.batch * in.hidden), 0.0);
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  if (cfg.layout == 0) {
    ONNXGATE_RETURN_IF_ERROR(CheckShape(*t, name, {dirs, in.batch, in.hidden}));
    return ToDoubles(*t, in.dtype, name);
  }
  ONNXGATE_RETURN_IF_ERROR(CheckShape(*t, name, {in.batch, dirs, in.hidden}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*t, in.dtype, name));
  return SwapLeadingDims(v, in.batch, dirs, in.hidden);
}

// Writes doubles into a new tensor of `dtype` and `dims`.
StatusOr<Tensor> FromDoubles(const std::vector<double>& v, DataType dtype,
                             const std::vector<int64_t>& dims) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor t, NewTensor(dtype, Shape(dims)));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    T* p = t.mutable_data<T>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = FromCompute<T>(static_cast<ComputeType<T>>(v[i]));
    return OkStatus();
  }));
  return t;
}

}  // namespace

double RnnActivation::operator()(double x) const {
  switch (kind) {
    case Kind::kRelu: return std::max(x, 0.0);
    case Kind::kTanh: return std::tanh(x);
    case Kind::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case Kind::kAffine: return alpha * x + beta;
    case Kind::kLeakyRelu: return x >= 0 ? x : alpha * x;
    case Kind::kThresholdedRelu: return x > alpha ? x : 0.0;
    case Kind::kScaledTanh: return alpha * std::tanh(beta * x);
    case Kind::kHardSigmoid: return std::max(0.0, std::min(1.0, alpha * x + beta));
    case Kind::kElu: return x >= 0 ? x : alpha * (std::exp(x) - 1.0);
    case Kind::kSoftsign: return x / (1.0 + std::fabs(x));
    // log(1 + e^x) without overflow for large x.
    case Kind::kSoftplus: return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
  return x;
}

StatusOr<std::vector<RnnActivation>> ParseRnnActivations(const KernelInfo& info,
                                                         const std::vector<std::string>& defaults,
                                                         int num_directions) {
  std::vector<std::string> names;
  if (info.has_attribute("activations")) {
    ONNXGATE_ASSIGN_OR_RETURN(names, info.GetStrings("activations"));
  } else {
    names = defaults;
  }
  const size_t per_direction = defaults.size();
  if (names.size() == per_direction && num_directions == 2) {
    const std::vector<std::string> one_direction = names;
    names.insert(names.end(), one_direction.begin(), one_direction.end());
  }
  if (names.size() != per_direction * static_cast<size_t>(num_directions)) {
    return InvalidArgument("'activations' lists " + std::to_string(names.size()) +
                           " functions, expected " +
                           std::to_string(per_direction * num_directions) + " (" +
                           std::to_string(per_direction) + " per direction)");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> alphas,
                            info.GetFloats("activation_alpha", std::vector<float>{}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> betas,
                            info.GetFloats("activation_beta", std::vector<float>{}));
  size_t next_alpha = 0, next_beta = 0;
  std::vector<RnnActivation> out;
  for (const std::string& name : names) {
    const std::string lower = Lower(name);
    const ActivationSpec* spec = nullptr;
    for (const ActivationSpec& s : kActivations) {
      if (lower == s.name) spec = &s;
    }
    if (spec == nullptr) {
      return Unimplemented("unknown activation function '" + name + "'");
    }
    RnnActivation a{spec->kind, spec->alpha, spec->beta};
    if (spec->params >= 1 && next_alpha < alphas.size()) a.alpha = alphas[next_alpha++];
    if (spec->params >= 2 && next_beta < betas.size()) a.beta = betas[next_beta++];
    out.push_back(a);
  }
  return out;
}

StatusOr<RecurrentConfig> ParseRecurrentConfig(const KernelInfo& info,
                                               const std::vector<std::string>& defaults) {
  RecurrentConfig cfg;
  ONNXGATE_ASSIGN_OR_RETURN(std::string direction, info.GetString("direction", "forward"));
  if (direction == "forward") {
    cfg.direction = RecurrentConfig::Direction::kForward;
  } else if (direction == "reverse") {
    cfg.direction = RecurrentConfig::Direction::kReverse;
  } else if (direction == "bidirectional") {
    cfg.direction = RecurrentConfig::Direction::kBidirectional;
    cfg.num_directions = 2;
  } else {
    return InvalidArgument(
        "'direction' must be forward, reverse or "
        "bidirectional, got '" +
        direction + "'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(cfg.hidden_size, info.GetInt("hidden_size", -1));
  if (info.has_attribute("hidden_size") && cfg.hidden_size <= 0) {
    return InvalidArgument("'hidden_size' must be positive, got " +
                           std::to_string(cfg.hidden_size));
  }
  if (info.has_attribute("clip")) {
    ONNXGATE_ASSIGN_OR_RETURN(float clip, info.GetFloat("clip"));
    if (!(clip > 0)) {
      return InvalidArgument("'clip' must be positive, got " + std::to_string(clip));
    }
    cfg.clip = clip;
  }
  ONNXGATE_ASSIGN_OR_RETURN(cfg.layout, info.GetInt("layout", 0));
  if (cfg.layout != 0 && cfg.layout != 1) {
    return InvalidArgument("'layout' must be 0 or 1, got " + std::to_string(cfg.layout));
  }
  ONNXGATE_ASSIGN_OR_RETURN(cfg.activations,
                            ParseRnnActivations(info, defaults, cfg.num_directions));
  cfg.activations_per_direction = defaults.size();
  return cfg;
}

StatusOr<RecurrentInputs> ReadRecurrentInputs(const KernelContext& ctx, const RecurrentConfig& cfg,
                                              int gates, bool lstm) {
  RecurrentInputs in;
  in.num_directions = cfg.num_directions;
  const int64_t dirs = cfg.num_directions;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, 1, "W"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* r, GetInput(ctx, 2, "R"));
  in.dtype = x->dtype();
  if (x->shape().rank() != 3) {
    return InvalidArgument("'X' must have rank 3, got shape " + x->shape().ToString());
  }
  in.seq_length = x->shape()[cfg.layout == 0 ? 0 : 1];
  in.batch = x->shape()[cfg.layout == 0 ? 1 : 0];
  in.input_size = x->shape()[2];
  if (r->shape().rank() != 3) {
    return InvalidArgument("'R' must have rank 3, got shape " + r->shape().ToString());
  }
  in.hidden = cfg.hidden_size > 0 ? cfg.hidden_size : r->shape()[2];
  const int64_t gh = gates * in.hidden;
  ONNXGATE_RETURN_IF_ERROR(CheckShape(*w, "W", {dirs, gh, in.input_size}));
  ONNXGATE_RETURN_IF_ERROR(CheckShape(*r, "R", {dirs, gh, in.hidden}));
  ONNXGATE_ASSIGN_OR_RETURN(in.x, ToDoubles(*x, in.dtype, "X"));
  if (cfg.layout == 1) in.x = SwapLeadingDims(in.x, in.batch, in.seq_length, in.input_size);
  ONNXGATE_ASSIGN_OR_RETURN(in.w, ToDoubles(*w, in.dtype, "W"));
  ONNXGATE_ASSIGN_OR_RETURN(in.r, ToDoubles(*r, in.dtype, "R"));
  if (ctx.has_input(3)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 3, "B"));
    ONNXGATE_RETURN_IF_ERROR(CheckShape(*b, "B", {dirs, 2 * gh}));
    ONNXGATE_ASSIGN_OR_RETURN(in.b, ToDoubles(*b, in.dtype, "B"));
  } else {
    in.b.assign(static_cast<size_t>(dirs * 2 * gh), 0.0);
  }
  in.seq_lens.assign(static_cast<size_t>(in.batch), in.seq_length);
  if (ctx.has_input(4)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* sl, GetInput(ctx, 4, "sequence_lens"));
    if (sl->dtype() != DataType::kInt32) {
      return InvalidArgument(std::string("'sequence_lens' must be int32, got ") +
                             DataTypeShortName(sl->dtype()));
    }
    ONNXGATE_RETURN_IF_ERROR(CheckShape(*sl, "sequence_lens", {in.batch}));
    for (int64_t b = 0; b < in.batch; ++b) {
      const int64_t len = sl->data<int32_t>()[b];
      if (len < 0 || len > in.seq_length) {
        return InvalidArgument("'sequence_lens' value " + std::to_string(len) + " for batch " +
                               std::to_string(b) + " is outside [0, " +
                               std::to_string(in.seq_length) + "]");
      }
      in.seq_lens[b] = len;
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(in.initial_h, ReadState(ctx, 5, "initial_h", cfg, in));
  if (lstm) {
    ONNXGATE_ASSIGN_OR_RETURN(in.initial_c, ReadState(ctx, 6, "initial_c", cfg, in));
    if (ctx.has_input(7)) {
      ONNXGATE_ASSIGN_OR_RETURN(const Tensor* p, GetInput(ctx, 7, "P"));
      ONNXGATE_RETURN_IF_ERROR(CheckShape(*p, "P", {dirs, 3 * in.hidden}));
      ONNXGATE_ASSIGN_OR_RETURN(in.p, ToDoubles(*p, in.dtype, "P"));
    } else {
      in.p.assign(static_cast<size_t>(dirs * 3 * in.hidden), 0.0);
    }
  }
  return in;
}

Status RunRecurrence(KernelContext& ctx, const RecurrentConfig& cfg, const RecurrentInputs& in,
                     bool lstm, const RecurrentCell& cell) {
  const int64_t seq = in.seq_length, batch = in.batch, hidden = in.hidden;
  const int64_t dirs = in.num_directions;
  std::vector<double> y(static_cast<size_t>(seq * dirs * batch * hidden), 0.0);
  std::vector<double> y_h(static_cast<size_t>(dirs * batch * hidden), 0.0);
  std::vector<double> y_c(y_h.size(), 0.0);
  std::vector<double> h(static_cast<size_t>(hidden)), c(static_cast<size_t>(hidden), 0.0);
  for (int64_t d = 0; d < dirs; ++d) {
    const bool reverse = cfg.direction == RecurrentConfig::Direction::kReverse || d == 1;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t state_at = (d * batch + b) * hidden;
      std::copy_n(in.initial_h.begin() + state_at, hidden, h.begin());
      if (lstm) std::copy_n(in.initial_c.begin() + state_at, hidden, c.begin());
      const int64_t len = in.seq_lens[b];
      for (int64_t s = 0; s < len; ++s) {
        const int64_t t = reverse ? len - 1 - s : s;
        cell(static_cast<int>(d), in.x.data() + (t * batch + b) * in.input_size, &h, &c);
        std::copy(h.begin(), h.end(), y.begin() + ((t * dirs + d) * batch + b) * hidden);
      }
      std::copy(h.begin(), h.end(), y_h.begin() + state_at);
      if (lstm) std::copy(c.begin(), c.end(), y_c.begin() + state_at);
    }
  }
  // Layout 1 puts the batch first: Y [batch, seq, dirs, hidden], Y_h [batch, dirs, hidden].
  std::vector<int64_t> y_dims = {seq, dirs, batch, hidden};
  std::vector<int64_t> state_dims = {dirs, batch, hidden};
  if (cfg.layout == 1) {
    y = SwapLeadingDims(y, seq * dirs, batch, hidden);  // [batch, seq * dirs, hidden]
    y_h = SwapLeadingDims(y_h, dirs, batch, hidden);
    y_c = SwapLeadingDims(y_c, dirs, batch, hidden);
    y_dims = {batch, seq, dirs, hidden};
    state_dims = {batch, dirs, hidden};
  }
  if (ctx.num_outputs() > 0) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(y, in.dtype, y_dims));
    ctx.set_output(0, std::move(t));
  }
  if (ctx.num_outputs() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(y_h, in.dtype, state_dims));
    ctx.set_output(1, std::move(t));
  }
  if (lstm && ctx.num_outputs() > 2) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(y_c, in.dtype, state_dims));
    ctx.set_output(2, std::move(t));
  }
  return OkStatus();
}

void AddMatVec(const double* m, int64_t rows, int64_t cols, const double* v, double* out) {
  for (int64_t i = 0; i < rows; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < cols; ++j) sum += m[i * cols + j] * v[j];
    out[i] += sum;
  }
}

}  // namespace onnxgate::ref
