// Slice.
#include "runtime/ep/ref/kernels/tensor/slice.h"

#include <algorithm>

#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

StatusOr<Tensor> Slice(const Tensor& x, const std::vector<int64_t>& starts,
                       const std::vector<int64_t>& ends,
                       const std::optional<std::vector<int64_t>>& axes,
                       const std::optional<std::vector<int64_t>>& steps, bool allow_negative_axes) {
  const Shape& s = x.shape();
  const int64_t rank = static_cast<int64_t>(s.rank());
  const size_t n = starts.size();
  if (ends.size() != n || (axes && axes->size() != n) || (steps && steps->size() != n)) {
    return InvalidArgument("starts, ends, axes and steps must have one length, got " +
                           std::to_string(n) + ", " + std::to_string(ends.size()) +
                           (axes ? ", " + std::to_string(axes->size()) : ", -") +
                           (steps ? ", " + std::to_string(steps->size()) : ", -"));
  }
  std::vector<int64_t> axis_list(n);
  for (size_t i = 0; i < n; ++i) axis_list[i] = axes ? (*axes)[i] : static_cast<int64_t>(i);
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axis_list, rank, allow_negative_axes));
  // Per dim: first index, step and count; untouched dims are taken whole.
  std::vector<int64_t> first(rank, 0), step(rank, 1), count = s.dims();
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = normalized[i];
    const int64_t dim = s[a];
    int64_t st = steps ? (*steps)[i] : 1;
    if (st == 0) return InvalidArgument("step for axis " + std::to_string(a) + " is 0");
    // A step longer than the dim takes at most one element, so clamping it avoids overflow.
    st = std::clamp<int64_t>(st, -(dim + 1), dim + 1);
    int64_t b = starts[i], e = ends[i];
    if (b < 0) b += dim;
    if (e < 0) e += dim;
    int64_t c;
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      c = e > b ? (e - b + st - 1) / st : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      c = b > e ? (b - e - st - 1) / -st : 0;
    }
    first[a] = b;
    step[a] = st;
    count[a] = c;
  }
  const std::vector<int64_t> in_strides = s.Strides();
  std::vector<int64_t> strides(rank);
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d) {
    strides[d] = in_strides[d] * step[d];
    base += first[d] * in_strides[d];
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), Shape(count)));
  if (y.NumElements() > 0) CopyStrided(x, count, strides, base, &y);
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> SliceKernel::Create(const KernelInfo& info) {
  std::unique_ptr<SliceKernel> k(new SliceKernel(info.since_version()));
  if (info.since_version() < 10) {
    ONNXGATE_ASSIGN_OR_RETURN(k->starts_, info.GetInts("starts"));
    ONNXGATE_ASSIGN_OR_RETURN(k->ends_, info.GetInts("ends"));
    if (info.has_attribute("axes")) {
      ONNXGATE_ASSIGN_OR_RETURN(k->axes_, info.GetInts("axes"));
    }
  }
  return std::unique_ptr<OpKernel>(std::move(k));
}

Status SliceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  if (version_ < 10) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Slice(*x, starts_, ends_, axes_, std::nullopt, false));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* starts_t, GetInput(ctx, 1, "starts"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* ends_t, GetInput(ctx, 2, "ends"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> starts, ToInt64List(*starts_t, "starts"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> ends, ToInt64List(*ends_t, "ends"));
  std::optional<std::vector<int64_t>> axes, steps;
  if (ctx.has_input(3)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 3, "axes"));
    ONNXGATE_ASSIGN_OR_RETURN(axes, ToInt64List(*t, "axes"));
  }
  if (ctx.has_input(4)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 4, "steps"));
    ONNXGATE_ASSIGN_OR_RETURN(steps, ToInt64List(*t, "steps"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Slice(*x, starts, ends, axes, steps, version_ >= 11));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
