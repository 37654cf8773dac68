// DepthToSpace and SpaceToDepth as index maps over the output, then one gather.
#include "runtime/ep/ref/kernels/tensor/depth_space.h"

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

Status CheckInput(const Tensor& input, int64_t b) {
  if (input.shape().rank() != 4) {
    return InvalidArgument("input must be 4-D [N, C, H, W], got " + input.shape().ToString());
  }
  if (b < 1) return InvalidArgument("blocksize must be >= 1, got " + std::to_string(b));
  return OkStatus();
}

}  // namespace

StatusOr<Tensor> DepthToSpace(const Tensor& input, int64_t b, bool crd) {
  ONNXGATE_RETURN_IF_ERROR(CheckInput(input, b));
  const Shape& s = input.shape();
  const int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  if (c % (b * b) != 0) {
    return InvalidArgument("C = " + std::to_string(c) + " of input " + s.ToString() +
                           " is not divisible by blocksize^2 = " + std::to_string(b * b));
  }
  const int64_t oc = c / (b * b), oh = h * b, ow = w * b;
  std::vector<int64_t> from;
  from.reserve(static_cast<size_t>(n * c * h * w));
  for (int64_t in = 0; in < n; ++in) {
    for (int64_t ic = 0; ic < oc; ++ic) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          const int64_t by = y % b, bx = x % b;
          const int64_t channel = crd ? (ic * b + by) * b + bx : (by * b + bx) * oc + ic;
          from.push_back(((in * c + channel) * h + y / b) * w + x / b);
        }
      }
    }
  }
  return TakeElements(input, Shape({n, oc, oh, ow}), from);
}

StatusOr<Tensor> SpaceToDepth(const Tensor& input, int64_t b, bool crd) {
  ONNXGATE_RETURN_IF_ERROR(CheckInput(input, b));
  const Shape& s = input.shape();
  const int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  if (h % b != 0 || w % b != 0) {
    return InvalidArgument("H and W of input " + s.ToString() + " must be divisible by blocksize " +
                           std::to_string(b));
  }
  const int64_t oc = c * b * b, oh = h / b, ow = w / b;
  std::vector<int64_t> from;
  from.reserve(static_cast<size_t>(n * c * h * w));
  for (int64_t in = 0; in < n; ++in) {
    for (int64_t channel = 0; channel < oc; ++channel) {
      // DCR: output channel (by * b + bx) * C + ic holds offset (by, bx) of input channel ic;
      // CRD: output channel ic * b^2 + by * b + bx does.
      const int64_t block = crd ? channel % (b * b) : channel / c;
      const int64_t ic = crd ? channel / (b * b) : channel % c;
      const int64_t by = block / b, bx = block % b;
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          from.push_back(((in * c + ic) * h + y * b + by) * w + x * b + bx);
        }
      }
    }
  }
  return TakeElements(input, Shape({n, oc, oh, ow}), from);
}

StatusOr<std::unique_ptr<OpKernel>> DepthSpaceKernel::Create(const KernelInfo& info) {
  const bool to_space = info.op_type() == "DepthToSpace";
  if (!info.has_attribute("blocksize")) {
    return InvalidArgument("the 'blocksize' attribute is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t blocksize, info.GetInt("blocksize"));
  bool crd = false;
  // 'mode' exists from DepthToSpace-11 and SpaceToDepth-28; earlier versions always use DCR.
  const int mode_since = to_space ? 11 : 28;
  if (info.since_version() < mode_since && info.has_attribute("mode")) {
    return InvalidArgument("'mode' exists from " + info.op_type() + "-" +
                           std::to_string(mode_since));
  }
  if (info.since_version() >= mode_since) {
    ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", std::string("DCR")));
    if (mode != "DCR" && mode != "CRD") {
      return InvalidArgument("mode must be DCR or CRD, got '" + mode + "'");
    }
    crd = mode == "CRD";
  }
  return std::unique_ptr<OpKernel>(new DepthSpaceKernel(to_space, blocksize, crd));
}

Status DepthSpaceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  StatusOr<Tensor> y =
      to_space_ ? DepthToSpace(*input, blocksize_, crd_) : SpaceToDepth(*input, blocksize_, crd_);
  if (!y.ok()) return y.status();
  ctx.set_output(0, std::move(y).value());
  return OkStatus();
}

}  // namespace onnxgate::ref
