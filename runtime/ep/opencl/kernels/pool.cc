// Pooling: the attributes are read and the window geometry resolved on the host with the ref
// EP's helpers (so both providers agree on output shapes and refuse the same nodes), the windows
// run on the device, one work item per output element, on data there or copied in, into a
// result left there.
#include "runtime/ep/opencl/kernels/pool.h"

#include <string>
#include <vector>

#include "runtime/provider/common/pool_attributes.h"

namespace onnxgate::opencl_ep {

namespace {

// The first output position (flat, per plane, row-major) whose window has no in-bounds
// position, or -1. A window is a product of one range per axis, so it is empty where one axis's
// range is.
int64_t FirstEmptyWindow(const WindowGeometry& g) {
  const size_t rank = g.rank();
  std::vector<std::vector<bool>> empty(rank);
  bool any = false;
  for (size_t d = 0; d < rank; ++d) {
    empty[d].assign(static_cast<size_t>(g.output[d]), true);
    for (int64_t o = 0; o < g.output[d]; ++o) {
      for (int64_t j = 0; j < g.kernel[d]; ++j) {
        const int64_t coord = o * g.strides[d] - g.pad_begin[d] + j * g.dilations[d];
        if (coord >= 0 && coord < g.input[d]) {
          empty[d][static_cast<size_t>(o)] = false;
          break;
        }
      }
      any = any || empty[d][static_cast<size_t>(o)];
    }
  }
  if (!any) return -1;
  int64_t positions = 1;
  for (int64_t o : g.output) positions *= o;
  for (int64_t p = 0; p < positions; ++p) {
    int64_t rest = p;
    for (size_t d = rank; d-- > 0;) {
      if (empty[d][static_cast<size_t>(rest % g.output[d])]) return p;
      rest /= g.output[d];
    }
  }
  return -1;
}

}  // namespace

const char* PoolKernel::name() const {
  switch (op_) {
    case PoolOp::kMaxPool: return "MaxPool";
    case PoolOp::kAveragePool: return "AveragePool";
    case PoolOp::kGlobalMaxPool: return "GlobalMaxPool";
    case PoolOp::kGlobalAveragePool: return "GlobalAveragePool";
  }
  return "Pool";
}

StatusOr<std::unique_ptr<OpKernel>> PoolKernel::Create(const KernelInfo& info, PoolOp op,
                                                       Context cl) {
  ConvPoolAttributes attrs;
  bool count_include_pad = false;
  if (op == PoolOp::kMaxPool || op == PoolOp::kAveragePool) {
    auto parsed =
        op == PoolOp::kMaxPool ? ParseMaxPoolAttributes(info) : ParseAveragePoolAttributes(info);
    if (!parsed.ok()) return parsed.status();
    attrs = std::move(parsed->attrs);
    count_include_pad = parsed->options.count_include_pad;
    if (op == PoolOp::kMaxPool && info.has_output(1)) {
      return Unimplemented(
          "MaxPool: the Indices output is not served: the opencl kernel keeps no argmax");
    }
  }
  return std::unique_ptr<OpKernel>(
      new PoolKernel(std::move(cl), op, std::move(attrs), count_include_pad));
}

Status PoolKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "X"));
  const Shape& xs = x.shape;
  if (xs.rank() < 3) {
    return InvalidArgument(std::string(name()) +
                           ": X must have rank >= 3 (N, C, spatial...), got " + xs.ToString());
  }
  const size_t rank = xs.rank() - 2;
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  WindowGeometry g;
  if (global()) {
    g = GlobalWindowGeometry(input);
  } else {
    auto resolved = ResolveWindowGeometry(attrs_, input, attrs_.kernel_shape);
    if (!resolved.ok()) {
      return resolved.status().WithContext(std::string(name()) + " with X " + xs.ToString());
    }
    g = std::move(resolved).value();
  }
  std::vector<int64_t> y_dims = {xs[0], xs[1]};
  y_dims.insert(y_dims.end(), g.output.begin(), g.output.end());
  Shape y_shape(y_dims);
  ONNXGATE_RETURN_IF_ERROR(y_shape.Validate());
  // As the ref EP: a max, or an average of in-bounds positions, is undefined over a window of
  // padding alone (a plane with an empty spatial dim has only such windows).
  if (xs[0] * xs[1] > 0 && !(average() && count_include_pad_)) {
    const int64_t p = FirstEmptyWindow(g);
    if (p >= 0) {
      return InvalidArgument("the window of output position " + std::to_string(p) +
                             " (flat, per plane) covers only padding, where this pooling is "
                             "undefined")
          .WithContext(std::string(name()) + " with X " + xs.ToString());
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, y_shape));
  if (y.NumElements() == 0) {
    ctx.set_output(0, y.Take());
    return OkStatus();
  }
  int64_t positions = 1, plane = 1, window = 1;
  for (size_t d = 0; d < rank; ++d) {
    positions *= g.output[d];
    plane *= g.input[d];
    window *= g.kernel[d];
  }
  std::vector<int64_t> meta;
  for (const std::vector<int64_t>* part :
       {&g.input, &g.output, &g.kernel, &g.strides, &g.dilations, &g.pad_begin, &g.pad_end}) {
    meta.insert(meta.end(), part->begin(), part->end());
  }
  // An X with no elements (an empty spatial dim, its windows all padding, which only an average
  // counting the pads accepts) is never read: one float stands in, OpenCL having no empty
  // buffers.
  static const float kNeverRead = 0.0f;
  KernelArg x_arg = x.NumElements() == 0 ? KernelArg::Input(&kNeverRead, sizeof(float)) : x.arg;
  ONNXGATE_RETURN_IF_ERROR(
      cl_->Run("pool_f32", {static_cast<size_t>(y.NumElements())},
               {std::move(x_arg), y.arg(), KernelArg::Longs(std::move(meta)),
                KernelArg::Int(static_cast<int32_t>(rank)), KernelArg::Long(positions),
                KernelArg::Long(plane), KernelArg::Long(window), KernelArg::Int(average() ? 1 : 0),
                KernelArg::Int(count_include_pad_ ? 1 : 0)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
