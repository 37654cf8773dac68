// Pooling on oneDNN's pooling_v2 primitive.
#include "runtime/ep/dnnl/kernels/pool.h"

#include <algorithm>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/pool_attributes.h"

namespace onnxgate::dnnl_ep {

namespace {

using dims = dnnl::memory::dims;

// X [N, C, spatial...] with `begin[i]` and `end[i]` zeros around spatial axis i.
std::vector<float> PadSpatial(const Tensor& x, const std::vector<int64_t>& begin,
                              const std::vector<int64_t>& end) {
  const std::vector<int64_t>& in = x.shape().dims();
  std::vector<int64_t> out = in;
  for (size_t i = 0; i < begin.size(); ++i) out[i + 2] += begin[i] + end[i];
  std::vector<int64_t> out_strides(out.size(), 1);
  for (size_t d = out.size() - 1; d > 0; --d) out_strides[d - 1] = out_strides[d] * out[d];
  std::vector<float> padded(static_cast<size_t>(out_strides[0] * out[0]), 0.0f);
  const float* src = x.data<float>();
  std::vector<int64_t> index(in.size(), 0);
  for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
    int64_t at = 0;
    for (size_t d = 0; d < in.size(); ++d) {
      at += (index[d] + (d >= 2 ? begin[d - 2] : 0)) * out_strides[d];
    }
    padded[static_cast<size_t>(at)] = src[i];
    for (size_t d = in.size(); d-- > 0;) {
      if (++index[d] < in[d]) break;
      index[d] = 0;
    }
  }
  return padded;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> PoolKernel::Create(const KernelInfo& info, PoolOp op,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  ConvPoolAttributes attrs;
  bool count_include_pad = false;
  if (op == PoolOp::kMaxPool || op == PoolOp::kAveragePool) {
    auto parsed =
        op == PoolOp::kMaxPool ? ParseMaxPoolAttributes(info) : ParseAveragePoolAttributes(info);
    if (!parsed.ok()) return parsed.status();
    attrs = std::move(parsed->attrs);
    count_include_pad = parsed->options.count_include_pad;
    if (attrs.kernel_shape.size() > kMaxSpatialRank) {
      return Unimplemented("oneDNN pools over 1 to 3 spatial dims; kernel_shape has " +
                           std::to_string(attrs.kernel_shape.size()));
    }
    if (op == PoolOp::kMaxPool && info.has_output(1)) {
      return Unimplemented(
          "the Indices output is not served: oneDNN's max pooling keeps its argmax in a "
          "workspace of its own layout, not as ONNX's flat indices");
    }
  }
  return std::unique_ptr<OpKernel>(
      new PoolKernel(std::move(dnnl), op, std::move(attrs), count_include_pad));
}

Status PoolKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(DnnlInput x_in, GetDnnlInput(ctx, *dnnl_, 0, "X"));
  const Shape xs = x_in.shape;
  if (xs.rank() < 3) {
    return InvalidArgument("X must have rank >= 3 (N, C, spatial...), got " + xs.ToString());
  }
  const size_t spatial = xs.rank() - 2;
  if (spatial > kMaxSpatialRank) {
    return InvalidArgument("oneDNN pools over 1 to 3 spatial dims; X " + xs.ToString() + " has " +
                           std::to_string(spatial));
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  WindowGeometry g;
  if (global()) {
    g = GlobalWindowGeometry(input);
  } else {
    auto resolved = ResolveWindowGeometry(attrs_, input, attrs_.kernel_shape);
    if (!resolved.ok()) return resolved.status().WithContext("with X " + xs.ToString());
    g = std::move(resolved).value();
  }
  std::vector<int64_t> y_dims = {xs[0], xs[1]};
  y_dims.insert(y_dims.end(), g.output.begin(), g.output.end());
  if (Shape(y_dims).NumElements() == 0) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, Shape(y_dims)));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (xs.NumElements() == 0) {
    return InvalidArgument("X " + xs.ToString() +
                           " has an empty spatial dim: every window is "
                           "empty, where pooling is undefined");
  }
  // count_include_pad with ceil_mode: ONNX divides by the window's positions inside the explicit
  // pads, but oneDNN's padding-including average divides by the whole window, also where it
  // runs past them into the padding ceil_mode adds. So the explicit pads are written out as
  // zeros, and the padding-excluding average over that counts exactly ONNX's positions.
  const bool pad_in_buffer = count_include_pad_ && attrs_.ceil_mode;
  std::vector<int64_t> x_dims = xs.dims();
  dnnl::memory x_mem = x_in.memory;
  Tensor x_copy;
  std::vector<float> padded;
  if (pad_in_buffer) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetHostInput(ctx, 0, "X", &x_copy));
    padded = PadSpatial(*x, g.pad_begin, g.pad_end);
    for (size_t i = 0; i < spatial; ++i) {
      x_dims[i + 2] += g.pad_begin[i] + g.pad_end[i];
      g.input[i] = x_dims[i + 2];
      g.pad_begin[i] = 0;
      g.pad_end[i] = 0;
    }
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "memory", [&]() -> Status {
      x_mem = WrapMemory(*dnnl_, PlainDesc(DimsOf(x_dims)), padded.data());
      return OkStatus();
    }));
  }
  // A resident X is pooled in its own layout, into the layout oneDNN picks for Y; a host X in
  // the plain layout, into a plain Y.
  const dnnl::memory::desc x_desc = x_mem.get_desc();
  const bool resident = x_in.host == nullptr && !pad_in_buffer;
  auto make = [&]() -> StatusOr<std::shared_ptr<const PoolEntry>> {
    auto entry = std::make_shared<PoolEntry>();
    entry->x = x_desc;
    entry->y = resident ? dnnl::memory::desc(DimsOf(y_dims), dnnl::memory::data_type::f32,
                                             dnnl::memory::format_tag::any)
                        : PlainDesc(DimsOf(y_dims));
    dims strides, kernel, dilations, pad_l, pad_r;
    for (size_t i = 0; i < spatial; ++i) {
      strides.push_back(g.strides[i]);
      kernel.push_back(g.kernel[i]);
      dilations.push_back(g.dilations[i] - 1);  // oneDNN counts the gaps
      pad_l.push_back(g.pad_begin[i]);
      // oneDNN wants floor((in + pad_l + pad_r - window) / stride) + 1 to be the output size;
      // ceil_mode's last window needs more end padding than the explicit pads give.
      const int64_t window = (g.kernel[i] - 1) * g.dilations[i] + 1;
      const int64_t least = (g.output[i] - 1) * g.strides[i] + window - g.input[i] - g.pad_begin[i];
      pad_r.push_back(std::clamp(g.pad_end[i], least, least + g.strides[i] - 1));
    }
    const dnnl::algorithm alg = max() ? dnnl::algorithm::pooling_max
                                : count_include_pad_ && !pad_in_buffer
                                    ? dnnl::algorithm::pooling_avg_include_padding
                                    : dnnl::algorithm::pooling_avg_exclude_padding;
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "pooling_v2_forward", [&]() -> Status {
      dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, alg, entry->x,
                                          entry->y, strides, kernel, dilations, pad_l, pad_r);
      entry->pd = dnnl::pooling_v2_forward::primitive_desc(desc, DefaultAttr(), dnnl_->engine());
      entry->primitive = dnnl::pooling_v2_forward(entry->pd);
      return OkStatus();
    }));
    return std::shared_ptr<const PoolEntry>(std::move(entry));
  };
  PrimitiveCache<PoolEntry>::Key key = xs.dims();
  const std::vector<int64_t> layout = LayoutKey(x_desc);
  key.insert(key.end(), layout.begin(), layout.end());
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const PoolEntry> entry, cache_.Get(key, make));
  ONNXGATE_ASSIGN_OR_RETURN(DnnlOutput out,
                            DnnlOutput::Create(dnnl_, entry->pd.dst_desc(), Shape(y_dims)));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "pooling_v2_forward", [&]() -> Status {
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd,
                          {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_DST, out.memory()}});
    return OkStatus();
  }));
  ctx.set_output(0, out.Take());
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
