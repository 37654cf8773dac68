// Conv on oneDNN's convolution primitive.
#include "runtime/ep/dnnl/kernels/conv.h"

#include <cmath>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;

// Whether none of the `n` floats at `data` is a NaN or an infinity (exponent bits all set).
bool AllFinite(const float* data, size_t n) {
  const uint32_t* bits = reinterpret_cast<const uint32_t*>(data);
  uint32_t special = 0;
  for (size_t i = 0; i < n; ++i) special |= (bits[i] & 0x7f800000u) == 0x7f800000u;
  return special == 0;
}

// Whether the fused `activation` ends in a clip to finite bounds: oneDNN's clip then leaves no
// NaN or infinity (it maps a NaN into its bounds, see ConvKernel), so Y is finite whatever the
// sums were.
bool ClipsToFiniteBounds(const std::vector<EltwiseStep>& activation) {
  if (activation.empty()) return false;
  const EltwiseStep& last = activation.back();
  return last.algorithm == dnnl::algorithm::eltwise_clip_v2 && std::isfinite(last.alpha) &&
         std::isfinite(last.beta);
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> ConvKernel::Create(const KernelInfo& info,
                                                       std::shared_ptr<const DnnlContext> dnnl,
                                                       std::vector<EltwiseStep> activation,
                                                       std::optional<ConvResidual> residual) {
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t group, info.GetInt("group", 1));
  if (group < 1) {
    return InvalidArgument("attribute 'group' must be >= 1, got " + std::to_string(group));
  }
  if (!attrs.kernel_shape.empty()) {
    ONNXGATE_RETURN_IF_ERROR(
        CheckSpatialRank(attrs.kernel_shape.size(), "convolves", "kernel_shape"));
  }
  std::optional<Tensor> w_constant;
  if (const Tensor* w = info.constant_input(1)) {
    if (w->shape().rank() >= 2) {
      ONNXGATE_RETURN_IF_ERROR(CheckSpatialRank(w->shape().rank() - 2, "convolves", "W"));
    }
    w_constant = *w;
  }
  // A constant W is checked for NaN and infinity once, here, not on every run.
  const bool w_constant_finite =
      w_constant &&
      AllFinite(w_constant->data<float>(), static_cast<size_t>(w_constant->NumElements()));
  return std::unique_ptr<OpKernel>(new ConvKernel(std::move(dnnl), std::move(attrs), group,
                                                  std::move(w_constant), w_constant_finite,
                                                  std::move(activation), std::move(residual)));
}

Status ConvKernel::ComputeSeparately(KernelContext& ctx) const {
  const ConvResidual& r = *residual_;
  KernelContext conv({ctx.input(0), ctx.input(1), ctx.input(2)}, 1, ctx.scope());
  ONNXGATE_RETURN_IF_ERROR(r.conv->Compute(conv));
  const Value* sum_inputs[2] = {&conv.outputs()[0], ctx.input(3)};
  if (r.r_first) std::swap(sum_inputs[0], sum_inputs[1]);
  KernelContext add({sum_inputs[0], sum_inputs[1]}, 1, ctx.scope());
  ONNXGATE_RETURN_IF_ERROR(r.add->Compute(add));
  if (r.activation == nullptr) {
    ctx.set_output(0, std::move(add.outputs()[0]));
    return OkStatus();
  }
  KernelContext activation({&add.outputs()[0]}, 1, ctx.scope());
  ONNXGATE_RETURN_IF_ERROR(r.activation->Compute(activation));
  ctx.set_output(0, std::move(activation.outputs()[0]));
  return OkStatus();
}

Status ConvKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(DnnlInput x, GetDnnlInput(ctx, *dnnl_, 0, "X"));
  // W and B as host tensors: a resident one (the output of another dnnl kernel) is copied.
  Tensor w_copy, b_copy;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetHostInput(ctx, 1, "W", &w_copy));
  const Tensor* b = nullptr;
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(b, GetHostInput(ctx, 2, "B", &b_copy));
  }
  const Shape& xs = x.shape;
  const Shape& ws = w->shape();
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ConvKernelDims(attrs_, group_, xs, ws));
  if (w->dtype() != DataType::kFloat || (b != nullptr && b->dtype() != DataType::kFloat)) {
    return InvalidArgument("X, W and B must share one element type");
  }
  const size_t spatial = xs.rank() - 2;
  if (Status st = CheckSpatialRank(spatial, "convolves", "X " + xs.ToString()); !st.ok()) {
    return InvalidArgument(st.message());
  }
  const int64_t n = xs[0], c = xs[1], m = ws[0];
  if (b != nullptr && (b->shape().rank() != 1 || b->shape()[0] != m)) {
    return InvalidArgument("B must have shape [" + std::to_string(m) + "], got " +
                           b->shape().ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  auto resolved = ResolveWindowGeometry(attrs_, input, kernel);
  if (!resolved.ok()) return resolved.status().WithContext("with X " + xs.ToString());
  const WindowGeometry& g = *resolved;
  std::vector<int64_t> y_dims = {n, m};
  y_dims.insert(y_dims.end(), g.output.begin(), g.output.end());
  std::optional<DnnlInput> r;
  if (residual_) {
    ONNXGATE_ASSIGN_OR_RETURN(r, GetDnnlInput(ctx, *dnnl_, 3, "the residual"));
    if (r->shape != Shape(y_dims) || r->shape.NumElements() == 0 || c == 0) {
      return ComputeSeparately(ctx);
    }
  }
  if (Shape(y_dims).NumElements() == 0 || c == 0) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, Shape(y_dims)));
    // No input channel: every sum is empty, so Y is the bias (or zeros) on each channel.
    FillWithBias(&y, m, b);
    if (y.NumElements() > 0 && !activation_.empty()) {
      const Tensor sums = y.Clone();  // the activation's input, for its NaN rule
      dnnl::memory sums_mem, y_mem;
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "memory", [&]() -> Status {
        sums_mem = WrapMemory(*dnnl_, PlainDesc(DimsOf(y_dims)), sums.data<float>());
        y_mem = WrapMemory(*dnnl_, PlainDesc(DimsOf(y_dims)), y.data<float>());
        return OkStatus();
      }));
      ONNXGATE_RETURN_IF_ERROR(
          ApplyEltwise(*dnnl_, activation_cache_, sums_mem, y_mem, activation_));
    }
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }

  const bool w_is_constant = IsTheConstant(w_constant_, *w);
  const dnnl::memory::desc x_desc = x.memory.get_desc();
  PrimitiveCache<ConvEntry>::Key key =
      WeightedPrimitiveKey(xs, x_desc, ws, b != nullptr, w_is_constant);
  // The activation runs as a post-op when no input can make a NaN (AllFinite). X and R are not
  // read for that when their writers guarantee them finite.
  auto finite = [](const DnnlInput& in) {
    return in.known_finite || AllFinite(static_cast<const float*>(in.memory.get_data_handle()),
                                        in.memory.get_desc().get_size() / sizeof(float));
  };
  const bool fuse =
      !activation_.empty() && finite(x) && (!r || finite(*r)) &&
      (w_is_constant ? w_constant_finite_
                     : AllFinite(w->data<float>(), static_cast<size_t>(w->NumElements()))) &&
      (b == nullptr || AllFinite(b->data<float>(), static_cast<size_t>(b->NumElements())));
  key.push_back(fuse ? 1 : 0);
  if (r) {
    const std::vector<int64_t> r_layout = LayoutKey(r->memory.get_desc());
    key.insert(key.end(), r_layout.begin(), r_layout.end());
  }

  auto make = [&]() -> StatusOr<std::shared_ptr<const ConvEntry>> {
    auto entry = std::make_shared<ConvEntry>();
    dims w_dims = DimsOf(ws.dims());
    if (group_ > 1) {  // oneDNN's grouped weights: [group, M / group, C / group, kernel...]
      w_dims[0] = m / group_;
      w_dims.insert(w_dims.begin(), group_);
    }
    entry->x_desc = x_desc;
    entry->w_plain = PlainDesc(w_dims);
    entry->b_plain = PlainDesc({m});
    dims strides(g.strides.begin(), g.strides.end());
    dims dilations;
    for (int64_t d : g.dilations) dilations.push_back(d - 1);  // oneDNN counts the gaps
    dims pad_l(g.pad_begin.begin(), g.pad_begin.end());
    dims pad_r(g.pad_end.begin(), g.pad_end.end());
    const auto f32 = dnnl::memory::data_type::f32;
    dnnl::memory::desc x_any(DimsOf(xs.dims()), f32, tag::any);
    dnnl::memory::desc w_any(w_dims, f32, tag::any);
    dnnl::memory::desc y_any(DimsOf(y_dims), f32, tag::any);
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "convolution_forward", [&]() -> Status {
      const auto prop = dnnl::prop_kind::forward_inference;
      const auto alg = dnnl::algorithm::convolution_direct;
      auto desc = b != nullptr
                      ? dnnl::convolution_forward::desc(prop, alg, x_any, w_any, entry->b_plain,
                                                        y_any, strides, dilations, pad_l, pad_r)
                      : dnnl::convolution_forward::desc(prop, alg, x_any, w_any, y_any, strides,
                                                        dilations, pad_l, pad_r);
      dnnl::primitive_attr attr = DefaultAttr();
      dnnl::post_ops post_ops;
      if (r) post_ops.append_sum(1.0f);  // onto R, copied into Y first
      if (fuse) {
        for (const EltwiseStep& step : activation_) {
          post_ops.append_eltwise(1.0f, step.algorithm, step.alpha, step.beta);
        }
      }
      attr.set_post_ops(post_ops);
      entry->pd = dnnl::convolution_forward::primitive_desc(desc, attr, dnnl_->engine());
      entry->primitive = dnnl::convolution_forward(entry->pd);
      return OkStatus();
    }));
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
      MakeReorder(*dnnl_, entry->x_desc, entry->pd.src_desc(), &entry->x_reorder,
                  &entry->x_reorder_pd);
      MakeReorder(*dnnl_, entry->w_plain, entry->pd.weights_desc(), &entry->w_reorder,
                  &entry->w_reorder_pd);
      if (r) {
        MakeReorder(*dnnl_, r->memory.get_desc(), entry->pd.dst_desc(), &entry->r_reorder,
                    &entry->r_reorder_pd);
      }
      if (w_is_constant) {
        // Reordered once, here; every later run of this shape uses it as it is.
        dnnl::memory plain = WrapMemory(*dnnl_, entry->w_plain, w_constant_->data<float>());
        // When the plain layout is the primitive's, this is the constant itself, whose storage
        // the kernel keeps alive.
        entry->w_constant = Reordered(*dnnl_, plain, entry->pd.weights_desc(), entry->w_reorder,
                                      entry->w_reorder_pd);
      }
      return OkStatus();
    }));
    return std::shared_ptr<const ConvEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ConvEntry> entry, cache_.Get(key, make));

  ONNXGATE_ASSIGN_OR_RETURN(DnnlOutput out,
                            DnnlOutput::Create(dnnl_, entry->pd.dst_desc(), Shape(y_dims)));
  // An activation that is not fused runs on the convolution's result afterwards.
  const bool after = !activation_.empty() && !fuse;
  dnnl::memory conv_dst = out.memory();
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "convolution_forward", [&]() -> Status {
    if (after) conv_dst = dnnl::memory(entry->pd.dst_desc(), dnnl_->engine());
    const ConvEntry& e = *entry;
    if (r) CopyInto(*dnnl_, r->memory, conv_dst, e.r_reorder, e.r_reorder_pd);
    dnnl::memory x_mem = Reordered(*dnnl_, x.memory, e.pd.src_desc(), e.x_reorder, e.x_reorder_pd);
    dnnl::memory w_mem = e.w_constant
                             ? *e.w_constant
                             : Reordered(*dnnl_, WrapMemory(*dnnl_, e.w_plain, w->data<float>()),
                                         e.pd.weights_desc(), e.w_reorder, e.w_reorder_pd);
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_DST, conv_dst}};
    if (b != nullptr) args.emplace(DNNL_ARG_BIAS, WrapMemory(*dnnl_, e.b_plain, b->data<float>()));
    ExecuteWithScratchpad(*dnnl_, e.primitive, e.pd, std::move(args));
    return OkStatus();
  }));
  if (after) {
    ONNXGATE_RETURN_IF_ERROR(
        ApplyEltwise(*dnnl_, activation_cache_, conv_dst, out.memory(), activation_));
  }
  ctx.set_output(0, out.Take(fuse && ClipsToFiniteBounds(activation_)));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
