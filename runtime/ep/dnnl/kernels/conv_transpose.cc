// ConvTranspose on oneDNN's deconvolution primitive.
#include "runtime/ep/dnnl/kernels/conv_transpose.h"

#include <algorithm>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;

// oneDNN's weights for ONNX's W [C, M / group, kernel...]: dims [group, M / group, C / group,
// kernel...] (without the group axis when group is 1), with the strides of W as it lies.
dnnl::memory::desc WeightsDesc(int64_t group, int64_t c, int64_t m,
                               const std::vector<int64_t>& kernel) {
  dims d(kernel.begin(), kernel.end());
  dims s(kernel.size(), 1);
  for (size_t i = kernel.size() - 1; i > 0; --i) s[i - 1] = s[i] * kernel[i];
  const int64_t kernel_size = s[0] * kernel[0];
  const int64_t mg = m / group, cg = c / group;
  d.insert(d.begin(), {mg, cg});
  s.insert(s.begin(), {kernel_size, mg * kernel_size});
  if (group > 1) {
    d.insert(d.begin(), group);
    s.insert(s.begin(), cg * mg * kernel_size);
  }
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, s);
}

// What oneDNN runs for one geometry: its pads per spatial axis, and the part of Y's spatial dims
// the primitive writes (all of Y, or a box at `offset`).
struct DeconvolutionPlan {
  dims pad_l, pad_r;
  std::vector<int64_t> part, offset;
  bool whole = true;
};

// oneDNN's deconvolution reaches (x - 1) * stride + (kernel - 1) * dilation + 1 outputs along an
// axis, less its pads, and takes a begin pad >= 0 and an end pad > -stride. ONNX's end pad counts
// output_padding in the reach, so oneDNN's is pad_end - output_padding. Where a pad is beyond
// those bounds, oneDNN runs with both clamped to 0 on every axis and its output is the box of Y
// the kernel reaches; the rest of Y depends on no input.
DeconvolutionPlan PlanDeconvolution(const WindowGeometry& g,
                                    const std::vector<int64_t>& output_padding) {
  DeconvolutionPlan plan;
  const size_t rank = g.rank();
  std::vector<int64_t> reach(rank), end(rank);
  for (size_t i = 0; i < rank; ++i) {
    reach[i] = (g.output[i] - 1) * g.strides[i] + (g.kernel[i] - 1) * g.dilations[i] + 1;
    end[i] = g.pad_end[i] - (output_padding.empty() ? 0 : output_padding[i]);
    if (g.pad_begin[i] < 0 || end[i] + g.strides[i] <= 0) plan.whole = false;
  }
  for (size_t i = 0; i < rank; ++i) {
    const int64_t l = plan.whole ? g.pad_begin[i] : std::max<int64_t>(g.pad_begin[i], 0);
    const int64_t r = plan.whole ? end[i] : std::max<int64_t>(end[i], 0);
    plan.pad_l.push_back(l);
    plan.pad_r.push_back(r);
    plan.part.push_back(reach[i] - l - r);
    plan.offset.push_back(l - g.pad_begin[i]);
  }
  return plan;
}

// Sets every element of the plain [N, M, spatial...] tensor `y` to its channel's bias (B
// absent: leaves the zeros).

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> ConvTransposeKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(ConvTransposeAttributes attrs, ParseConvTransposeAttributes(info));
  // The spatial rank, where an attribute shows it at load.
  const std::pair<const char*, size_t> ranks[] = {{"kernel_shape", attrs.conv.kernel_shape.size()},
                                                  {"strides", attrs.conv.strides.size()},
                                                  {"dilations", attrs.conv.dilations.size()},
                                                  {"pads", attrs.conv.pads.size() / 2},
                                                  {"output_padding", attrs.output_padding.size()}};
  for (const auto& [name, rank] : ranks) {
    if (rank > 0) ONNXGATE_RETURN_IF_ERROR(CheckSpatialRank(rank, "deconvolves", name));
  }
  std::optional<Tensor> w_constant;
  if (const Tensor* w = info.constant_input(1)) {
    if (w->shape().rank() >= 2) {
      ONNXGATE_RETURN_IF_ERROR(CheckSpatialRank(w->shape().rank() - 2, "deconvolves", "W"));
    }
    w_constant = *w;
  }
  return std::unique_ptr<OpKernel>(
      new ConvTransposeKernel(std::move(dnnl), std::move(attrs), std::move(w_constant)));
}

Status ConvTransposeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(DnnlInput x, GetDnnlInput(ctx, *dnnl_, 0, "X"));
  // W and B as host tensors: a resident one (the output of another dnnl kernel) is copied.
  Tensor w_copy, b_copy;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetHostInput(ctx, 1, "W", &w_copy));
  const Tensor* b = nullptr;
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(b, GetHostInput(ctx, 2, "B", &b_copy));
  }
  if (w->dtype() != DataType::kFloat || (b != nullptr && b->dtype() != DataType::kFloat)) {
    return InvalidArgument("X, W and B must share one element type");
  }
  const Shape& xs = x.shape;
  const Shape& ws = w->shape();
  ONNXGATE_ASSIGN_OR_RETURN(
      ConvTransposeShapes shapes,
      ResolveConvTransposeShapes(attrs_, xs, ws, b != nullptr ? &b->shape() : nullptr));
  if (Status st = CheckSpatialRank(xs.rank() - 2, "deconvolves", "X " + xs.ToString()); !st.ok()) {
    return InvalidArgument(st.message());
  }
  const WindowGeometry& g = shapes.g;
  const int64_t n = shapes.n, c = shapes.c, m = shapes.m, group = attrs_.group;
  const DeconvolutionPlan plan = PlanDeconvolution(g, attrs_.output_padding);
  const bool nothing_reached =
      xs.NumElements() == 0 ||
      std::any_of(plan.part.begin(), plan.part.end(), [](int64_t d) { return d <= 0; });
  if (shapes.y.NumElements() == 0 || nothing_reached) {
    // No output depends on X: Y is the bias (or zeros) on each channel.
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, shapes.y));
    FillWithBias(&y, m, b);
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }

  const bool w_is_constant = IsTheConstant(w_constant_, *w);
  const dnnl::memory::desc x_desc = x.memory.get_desc();
  const PrimitiveCache<ConvTransposeEntry>::Key key =
      WeightedPrimitiveKey(xs, x_desc, ws, b != nullptr, w_is_constant);

  auto make = [&]() -> StatusOr<std::shared_ptr<const ConvTransposeEntry>> {
    auto entry = std::make_shared<ConvTransposeEntry>();
    dims part_dims = {n, m};
    part_dims.insert(part_dims.end(), plan.part.begin(), plan.part.end());
    dims strides(g.strides.begin(), g.strides.end());
    dims dilations;
    for (int64_t d : g.dilations) dilations.push_back(d - 1);  // oneDNN counts the gaps
    const auto f32 = dnnl::memory::data_type::f32;
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "deconvolution_forward", [&]() -> Status {
      entry->x_desc = x_desc;
      entry->w_plain = WeightsDesc(group, c, m, g.kernel);
      entry->b_plain = PlainDesc({m});
      dnnl::memory::desc x_any(DimsOf(xs.dims()), f32, tag::any);
      dnnl::memory::desc w_any(entry->w_plain.dims(), f32, tag::any);
      dnnl::memory::desc y_any(part_dims, f32, tag::any);
      const auto prop = dnnl::prop_kind::forward_inference;
      const auto alg = dnnl::algorithm::deconvolution_direct;
      auto desc =
          b != nullptr
              ? dnnl::deconvolution_forward::desc(prop, alg, x_any, w_any, entry->b_plain, y_any,
                                                  strides, dilations, plan.pad_l, plan.pad_r)
              : dnnl::deconvolution_forward::desc(prop, alg, x_any, w_any, y_any, strides,
                                                  dilations, plan.pad_l, plan.pad_r);
      entry->pd = dnnl::deconvolution_forward::primitive_desc(desc, DefaultAttr(), dnnl_->engine());
      entry->primitive = dnnl::deconvolution_forward(entry->pd);
      return OkStatus();
    }));
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
      MakeReorder(*dnnl_, entry->x_desc, entry->pd.src_desc(), &entry->x_reorder,
                  &entry->x_reorder_pd);
      MakeReorder(*dnnl_, entry->w_plain, entry->pd.weights_desc(), &entry->w_reorder,
                  &entry->w_reorder_pd);
      if (w_is_constant) {
        // Reordered once, here; every later run of this shape uses it as it is. When W's own
        // layout is the primitive's, this is the constant itself, which the kernel keeps alive.
        dnnl::memory plain = WrapMemory(*dnnl_, entry->w_plain, w_constant_->data<float>());
        entry->w_constant = Reordered(*dnnl_, plain, entry->pd.weights_desc(), entry->w_reorder,
                                      entry->w_reorder_pd);
      }
      if (!plan.whole) {
        dims offsets = {0, 0};
        offsets.insert(offsets.end(), plan.offset.begin(), plan.offset.end());
        entry->y_part = PlainDesc(DimsOf(shapes.y.dims())).submemory_desc(part_dims, offsets);
        MakeReorder(*dnnl_, entry->pd.dst_desc(), entry->y_part, &entry->part_reorder,
                    &entry->part_reorder_pd);
      }
      return OkStatus();
    }));
    return std::shared_ptr<const ConvTransposeEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ConvTransposeEntry> entry, cache_.Get(key, make));
  const ConvTransposeEntry& e = *entry;

  // The whole of Y from the primitive, in its layout; or a plain Y of the bias around the part
  // it writes.
  std::optional<DnnlOutput> whole;
  std::optional<Tensor> around;
  if (plan.whole) {
    ONNXGATE_ASSIGN_OR_RETURN(whole, DnnlOutput::Create(dnnl_, e.pd.dst_desc(), shapes.y));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(around, NewTensor(DataType::kFloat, shapes.y));
    FillWithBias(&*around, m, b);
  }
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "deconvolution_forward", [&]() -> Status {
    dnnl::memory x_mem = Reordered(*dnnl_, x.memory, e.pd.src_desc(), e.x_reorder, e.x_reorder_pd);
    dnnl::memory w_mem = e.w_constant
                             ? *e.w_constant
                             : Reordered(*dnnl_, WrapMemory(*dnnl_, e.w_plain, w->data<float>()),
                                         e.pd.weights_desc(), e.w_reorder, e.w_reorder_pd);
    dnnl::memory y_part;
    if (around) y_part = WrapMemory(*dnnl_, e.y_part, around->data<float>());
    dnnl::memory dst = whole            ? whole->memory()
                       : e.part_reorder ? dnnl::memory(e.pd.dst_desc(), dnnl_->engine())
                                        : y_part;
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_DST, dst}};
    if (b != nullptr) args.emplace(DNNL_ARG_BIAS, WrapMemory(*dnnl_, e.b_plain, b->data<float>()));
    ExecuteWithScratchpad(*dnnl_, e.primitive, e.pd, std::move(args));
    if (around && e.part_reorder) {
      ExecuteWithScratchpad(*dnnl_, *e.part_reorder, *e.part_reorder_pd,
                            {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, y_part}});
    }
    return OkStatus();
  }));
  if (whole) {
    ctx.set_output(0, whole->Take());
  } else {
    ctx.set_output(0, std::move(*around));
  }
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
