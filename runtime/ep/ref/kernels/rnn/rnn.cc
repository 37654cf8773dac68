// RNN, GRU and LSTM cells on top of the shared recurrence in recurrent.h.
#include "runtime/ep/ref/kernels/rnn/rnn.h"

#include <algorithm>

namespace onnxgate::ref {

namespace {

// Bounds an activation's input when the op has a clip threshold.
double Clip(const RecurrentConfig& cfg, double v) {
  return cfg.clip ? std::clamp(v, -*cfg.clip, *cfg.clip) : v;
}

// Pointers into the per-direction weights of `in` for a cell with `gates` gate blocks.
struct DirectionWeights {
  const double* w;   // [gates * hidden, input_size]
  const double* r;   // [gates * hidden, hidden]
  const double* wb;  // [gates * hidden]
  const double* rb;  // [gates * hidden]
  const RnnActivation* act;
};

DirectionWeights WeightsOf(const RecurrentInputs& in, const RecurrentConfig& cfg, int gates,
                           int dir) {
  const int64_t gh = gates * in.hidden;
  DirectionWeights dw;
  dw.w = in.w.data() + dir * gh * in.input_size;
  dw.r = in.r.data() + dir * gh * in.hidden;
  dw.wb = in.b.data() + dir * 2 * gh;
  dw.rb = dw.wb + gh;
  dw.act = cfg.activations.data() + dir * cfg.activations_per_direction;
  return dw;
}

Status CheckLayout(const KernelInfo& info) {
  // layout exists from opset 14; earlier versions always use layout 0.
  if (info.since_version() < 14 && info.has_attribute("layout")) {
    return InvalidArgument("'layout' is not an attribute of this op version");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> RnnKernel::Create(const KernelInfo& info) {
  ONNXGATE_RETURN_IF_ERROR(CheckLayout(info));
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentConfig cfg, ParseRecurrentConfig(info, {"Tanh"}));
  return std::unique_ptr<OpKernel>(new RnnKernel(std::move(cfg)));
}

Status RnnKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentInputs in, ReadRecurrentInputs(ctx, cfg_, 1, /*lstm=*/false));
  const int64_t hidden = in.hidden;
  std::vector<double> pre(static_cast<size_t>(hidden));
  auto cell = [&](int dir, const double* x, std::vector<double>* h, std::vector<double>*) {
    const DirectionWeights dw = WeightsOf(in, cfg_, 1, dir);
    for (int64_t i = 0; i < hidden; ++i) pre[i] = dw.wb[i] + dw.rb[i];
    AddMatVec(dw.w, hidden, in.input_size, x, pre.data());
    AddMatVec(dw.r, hidden, hidden, h->data(), pre.data());
    for (int64_t i = 0; i < hidden; ++i) (*h)[i] = dw.act[0](Clip(cfg_, pre[i]));
  };
  return RunRecurrence(ctx, cfg_, in, /*lstm=*/false, cell);
}

StatusOr<std::unique_ptr<OpKernel>> GruKernel::Create(const KernelInfo& info) {
  ONNXGATE_RETURN_IF_ERROR(CheckLayout(info));
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentConfig cfg, ParseRecurrentConfig(info, {"Sigmoid", "Tanh"}));
  // linear_before_reset exists from GRU-3.
  ONNXGATE_ASSIGN_OR_RETURN(int64_t lbr, info.GetInt("linear_before_reset", 0));
  return std::unique_ptr<OpKernel>(new GruKernel(std::move(cfg), lbr != 0));
}

Status GruKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentInputs in, ReadRecurrentInputs(ctx, cfg_, 3, /*lstm=*/false));
  const int64_t hd = in.hidden;
  std::vector<double> zr(static_cast<size_t>(2 * hd)), xh(static_cast<size_t>(hd)),
      rh(static_cast<size_t>(hd)), gated(static_cast<size_t>(hd));
  auto cell = [&](int dir, const double* x, std::vector<double>* h, std::vector<double>*) {
    const DirectionWeights dw = WeightsOf(in, cfg_, 3, dir);
    const RnnActivation& f = dw.act[0];
    const RnnActivation& g = dw.act[1];
    // z and r: the first two gate blocks.
    for (int64_t i = 0; i < 2 * hd; ++i) zr[i] = dw.wb[i] + dw.rb[i];
    AddMatVec(dw.w, 2 * hd, in.input_size, x, zr.data());
    AddMatVec(dw.r, 2 * hd, hd, h->data(), zr.data());
    for (double& v : zr) v = f(Clip(cfg_, v));
    const double* z = zr.data();
    const double* r = zr.data() + hd;
    // The candidate h: the third block; the reset gate applies before or after Rh.
    const double* wh = dw.w + 2 * hd * in.input_size;
    const double* rh_w = dw.r + 2 * hd * hd;
    for (int64_t i = 0; i < hd; ++i) xh[i] = dw.wb[2 * hd + i];
    AddMatVec(wh, hd, in.input_size, x, xh.data());
    std::fill(rh.begin(), rh.end(), 0.0);
    if (linear_before_reset_) {
      AddMatVec(rh_w, hd, hd, h->data(), rh.data());
      for (int64_t i = 0; i < hd; ++i) xh[i] += r[i] * (rh[i] + dw.rb[2 * hd + i]);
    } else {
      for (int64_t i = 0; i < hd; ++i) gated[i] = r[i] * (*h)[i];
      AddMatVec(rh_w, hd, hd, gated.data(), rh.data());
      for (int64_t i = 0; i < hd; ++i) xh[i] += rh[i] + dw.rb[2 * hd + i];
    }
    for (int64_t i = 0; i < hd; ++i) {
      const double candidate = g(Clip(cfg_, xh[i]));
      (*h)[i] = (1.0 - z[i]) * candidate + z[i] * (*h)[i];
    }
  };
  return RunRecurrence(ctx, cfg_, in, /*lstm=*/false, cell);
}

StatusOr<std::unique_ptr<OpKernel>> LstmKernel::Create(const KernelInfo& info) {
  ONNXGATE_RETURN_IF_ERROR(CheckLayout(info));
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentConfig cfg,
                            ParseRecurrentConfig(info, {"Sigmoid", "Tanh", "Tanh"}));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t input_forget, info.GetInt("input_forget", 0));
  return std::unique_ptr<OpKernel>(new LstmKernel(std::move(cfg), input_forget != 0));
}

Status LstmKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(RecurrentInputs in, ReadRecurrentInputs(ctx, cfg_, 4, /*lstm=*/true));
  const int64_t hd = in.hidden;
  std::vector<double> gates(static_cast<size_t>(4 * hd));
  auto cell = [&](int dir, const double* x, std::vector<double>* h, std::vector<double>* c) {
    const DirectionWeights dw = WeightsOf(in, cfg_, 4, dir);
    const RnnActivation& f = dw.act[0];
    const RnnActivation& g = dw.act[1];
    const RnnActivation& act_h = dw.act[2];
    const double* p = in.p.data() + dir * 3 * hd;  // peepholes i, o, f
    for (int64_t i = 0; i < 4 * hd; ++i) gates[i] = dw.wb[i] + dw.rb[i];
    AddMatVec(dw.w, 4 * hd, in.input_size, x, gates.data());
    AddMatVec(dw.r, 4 * hd, hd, h->data(), gates.data());
    for (int64_t k = 0; k < hd; ++k) {
      // Gate blocks in W, R and B are ordered i, o, f, c.
      const double c_prev = (*c)[k];
      const double it = f(Clip(cfg_, gates[k] + p[k] * c_prev));
      const double ft =
          input_forget_ ? 1.0 - it : f(Clip(cfg_, gates[2 * hd + k] + p[2 * hd + k] * c_prev));
      const double ct = g(Clip(cfg_, gates[3 * hd + k]));
      const double c_next = ft * c_prev + it * ct;
      const double ot = f(Clip(cfg_, gates[hd + k] + p[hd + k] * c_next));
      (*c)[k] = c_next;
      (*h)[k] = ot * act_h(c_next);
    }
  };
  return RunRecurrence(ctx, cfg_, in, /*lstm=*/true, cell);
}

}  // namespace onnxgate::ref
