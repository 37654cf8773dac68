// Elementwise activations on oneDNN's eltwise primitive.
#include "runtime/ep/dnnl/kernels/eltwise.h"

#include <oneapi/dnnl/dnnl_debug.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

using dnnl::algorithm;

StatusOr<std::shared_ptr<const EltwiseEntry>> MakeEltwise(const DnnlContext& dnnl,
                                                          const dnnl::memory::desc& md,
                                                          const std::vector<EltwiseStep>& steps) {
  auto entry = std::make_shared<EltwiseEntry>();
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(dnnl, "eltwise_forward", [&]() -> Status {
    for (const EltwiseStep& step : steps) {
      dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, step.algorithm, md,
                                       step.alpha, step.beta);
      entry->pds.emplace_back(desc, DefaultAttr(), dnnl.engine());
      if (step.accurate && !UseReferenceImplementation(&entry->pds.back())) {
        return Unimplemented(
            "oneDNN eltwise_forward: no reference implementation of " +
            std::string(dnnl_alg_kind2str(static_cast<dnnl_alg_kind_t>(step.algorithm))));
      }
      entry->primitives.emplace_back(entry->pds.back());
    }
    return OkStatus();
  }));
  return std::shared_ptr<const EltwiseEntry>(std::move(entry));
}

// The part of a cache key that names the steps.
void AppendStepsKey(const std::vector<EltwiseStep>& steps, PrimitiveCache<EltwiseEntry>::Key* key) {
  for (const EltwiseStep& step : steps) {
    key->insert(key->end(), {static_cast<int64_t>(step.algorithm), FloatKey(step.alpha),
                             FloatKey(step.beta), step.accurate ? 1 : 0});
  }
}

// Runs the steps from `src` into `dst` (both of the entry's layout), then copies NaN inputs
// through: the n floats of each buffer correspond one to one, in any layout.
void ExecuteSteps(const DnnlContext& dnnl, const EltwiseEntry& entry, const dnnl::memory& src,
                  const dnnl::memory& dst, size_t n) {
  for (size_t i = 0; i < entry.primitives.size(); ++i) {
    ExecuteWithScratchpad(dnnl, entry.primitives[i], entry.pds[i],
                          {{DNNL_ARG_SRC, i == 0 ? src : dst}, {DNNL_ARG_DST, dst}});
  }
  const float* in = static_cast<const float*>(src.get_data_handle());
  float* out = static_cast<float*>(dst.get_data_handle());
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(in[i])) out[i] = in[i];
  }
}

}  // namespace

StatusOr<Value> RunEltwiseOnInput(const std::shared_ptr<const DnnlContext>& dnnl,
                                  const PrimitiveCache<EltwiseEntry>& cache,
                                  const KernelContext& ctx, size_t index, const char* name,
                                  const std::vector<EltwiseStep>& steps) {
  const Value* v = ctx.input(index);
  if (v == nullptr || !v->is_resident()) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, index, name));
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, RunEltwise(*dnnl, cache, *x, steps));
    return Value::FromTensor(std::move(y));
  }
  ONNXGATE_ASSIGN_OR_RETURN(DnnlInput x, GetDnnlInput(ctx, *dnnl, index, name));
  ONNXGATE_ASSIGN_OR_RETURN(DnnlOutput out, DnnlOutput::Create(dnnl, x.memory.get_desc(), x.shape));
  ONNXGATE_RETURN_IF_ERROR(ApplyEltwise(*dnnl, cache, x.memory, out.memory(), steps));
  return out.Take();
}

Status ApplyEltwise(const DnnlContext& dnnl, const PrimitiveCache<EltwiseEntry>& cache,
                    const dnnl::memory& src, const dnnl::memory& dst,
                    const std::vector<EltwiseStep>& steps) {
  const dnnl::memory::desc md = src.get_desc();
  PrimitiveCache<EltwiseEntry>::Key key = LayoutKey(md);
  key.push_back(-1);
  const dnnl::memory::dims dims = md.dims();  // a copy per call
  key.insert(key.end(), dims.begin(), dims.end());
  AppendStepsKey(steps, &key);
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const EltwiseEntry> entry,
                            cache.Get(key, [&] { return MakeEltwise(dnnl, md, steps); }));
  return DnnlCall(dnnl, "eltwise_forward", [&]() -> Status {
    ExecuteSteps(dnnl, *entry, src, dst, md.get_size() / sizeof(float));
    return OkStatus();
  });
}

StatusOr<Tensor> RunEltwise(const DnnlContext& dnnl, const PrimitiveCache<EltwiseEntry>& cache,
                            const Tensor& x, const std::vector<EltwiseStep>& steps) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewUninitializedTensor(DataType::kFloat, x.shape()));
  const int64_t n = x.NumElements();
  if (n == 0) return y;
  // One flat run of n elements, so any rank takes the same primitive.
  dnnl::memory src, dst;
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(dnnl, "memory", [&]() -> Status {
    src = WrapMemory(dnnl, PlainDesc({n}), x.data<float>());
    dst = WrapMemory(dnnl, PlainDesc({n}), y.mutable_data<float>());
    return OkStatus();
  }));
  ONNXGATE_RETURN_IF_ERROR(ApplyEltwise(dnnl, cache, src, dst, steps));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> EltwiseKernel::Create(const KernelInfo& info, EltwiseOp op,
                                                          std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<EltwiseStep> steps, EltwiseStepsOf(info, op));
  return FromSteps(std::move(steps), std::move(dnnl));
}

std::unique_ptr<OpKernel> EltwiseKernel::FromSteps(std::vector<EltwiseStep> steps,
                                                   std::shared_ptr<const DnnlContext> dnnl) {
  return std::unique_ptr<OpKernel>(new EltwiseKernel(std::move(dnnl), std::move(steps)));
}

StatusOr<std::vector<EltwiseStep>> EltwiseStepsOf(const KernelInfo& info, EltwiseOp op) {
  std::vector<EltwiseStep> steps;
  switch (op) {
    case EltwiseOp::kRelu: steps = {{algorithm::eltwise_relu, 0.0f, 0.0f}}; break;
    case EltwiseOp::kLeakyRelu: {
      ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 0.01f));
      steps = {{algorithm::eltwise_relu, alpha, 0.0f}};
      break;
    }
    case EltwiseOp::kSigmoid: steps = {{algorithm::eltwise_logistic}}; break;
    case EltwiseOp::kTanh: steps = {{algorithm::eltwise_tanh}}; break;
    case EltwiseOp::kExp: steps = {{algorithm::eltwise_exp}}; break;
    case EltwiseOp::kLog: steps = {{algorithm::eltwise_log, 0.0f, 0.0f, /*accurate=*/true}}; break;
    case EltwiseOp::kSqrt: steps = {{algorithm::eltwise_sqrt}}; break;
    case EltwiseOp::kAbs: steps = {{algorithm::eltwise_abs}}; break;
    case EltwiseOp::kElu: {
      ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1.0f));
      steps = {{algorithm::eltwise_elu, alpha, 0.0f}};
      break;
    }
    case EltwiseOp::kHardSigmoid: {
      // max(0, min(1, alpha * x + beta)): a linear step, then a clip to [0, 1].
      ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 0.2f));
      ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta", 0.5f));
      steps = {{algorithm::eltwise_linear, alpha, beta}, {algorithm::eltwise_clip_v2, 0.0f, 1.0f}};
      break;
    }
    case EltwiseOp::kSoftplus:
      // ln(1 + e^x); oneDNN 2.x's soft_relu has no parameter (alpha is ignored).
      steps = {{algorithm::eltwise_soft_relu, 1.0f, 0.0f, /*accurate=*/true}};
      break;
    case EltwiseOp::kGelu: {
      ONNXGATE_ASSIGN_OR_RETURN(std::string approximate, info.GetString("approximate", "none"));
      if (approximate != "none" && approximate != "tanh") {
        return InvalidArgument("attribute 'approximate' must be \"none\" or \"tanh\", got \"" +
                               approximate + "\"");
      }
      steps = {
          {approximate == "tanh" ? algorithm::eltwise_gelu_tanh : algorithm::eltwise_gelu_erf}};
      break;
    }
  }
  return steps;
}

EltwiseStep ClipStep(float lo, float hi) {
  // A NaN bound compares false with everything in the spec's min/max: it clips nothing.
  if (std::isnan(lo)) lo = -std::numeric_limits<float>::infinity();
  if (std::isnan(hi)) hi = std::numeric_limits<float>::infinity();
  // min > max sets every value to max (oneDNN's clip refuses such bounds).
  if (lo > hi) lo = hi;
  return {algorithm::eltwise_clip_v2, lo, hi};
}

Status EltwiseKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(Value y, RunEltwiseOnInput(dnnl_, cache_, ctx, 0, "X", steps_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ClipKernel::Create(const KernelInfo& info,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  if (info.since_version() >= 11) {
    return std::unique_ptr<OpKernel>(new ClipKernel(std::move(dnnl), true, 0.0f, 0.0f));
  }
  // Clip-6: the bounds default to the float range.
  ONNXGATE_ASSIGN_OR_RETURN(float lo, info.GetFloat("min", -FLT_MAX));
  ONNXGATE_ASSIGN_OR_RETURN(float hi, info.GetFloat("max", FLT_MAX));
  return std::unique_ptr<OpKernel>(new ClipKernel(std::move(dnnl), false, lo, hi));
}

namespace {

// The value of the optional scalar bound `index` ('min' or 'max'), or `absent` when omitted.
StatusOr<float> BoundInput(const KernelContext& ctx, size_t index, const char* name, float absent) {
  if (!ctx.has_input(index)) return absent;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* bound, GetInput(ctx, index, name));
  if (bound->dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("'") + name + "' has type " +
                           DataTypeShortName(bound->dtype()) + " but input has float");
  }
  if (bound->NumElements() != 1) {
    return InvalidArgument(std::string("'") + name + "' must be a scalar, got shape " +
                           bound->shape().ToString());
  }
  return bound->data<float>()[0];
}

}  // namespace

Status ClipKernel::Compute(KernelContext& ctx) const {
  float lo = lo_;
  float hi = hi_;
  if (bounds_are_inputs_) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    ONNXGATE_ASSIGN_OR_RETURN(lo, BoundInput(ctx, 1, "min", -kInf));
    ONNXGATE_ASSIGN_OR_RETURN(hi, BoundInput(ctx, 2, "max", kInf));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Value y,
                            RunEltwiseOnInput(dnnl_, cache_, ctx, 0, "input", {ClipStep(lo, hi)}));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
