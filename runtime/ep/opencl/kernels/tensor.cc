// Transpose and Concat: shapes are checked on the host, elements move on the device, from
// tensors there or copied in, into a result left there. Reshape: the shape alone, on the host.
#include "runtime/ep/opencl/kernels/tensor.h"

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/shape_ops.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> TransposeKernel::Create(const KernelInfo& info, Context cl) {
  std::optional<std::vector<int64_t>> perm;
  if (info.has_attribute("perm")) {
    ONNXGATE_ASSIGN_OR_RETURN(perm, info.GetInts("perm"));
  }
  return std::unique_ptr<OpKernel>(new TransposeKernel(std::move(cl), std::move(perm)));
}

Status TransposeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "data"));
  const size_t rank = x.shape.rank();
  std::vector<int64_t> p(rank);
  if (perm_) {
    if (perm_->size() != rank) {
      return InvalidArgument("perm " + ListToString(*perm_) + " has " +
                             std::to_string(perm_->size()) + " entries for an input of rank " +
                             std::to_string(rank));
    }
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < rank; ++i) {
      const int64_t a = (*perm_)[i];
      if (a < 0 || a >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(a)]) {
        return InvalidArgument("perm " + ListToString(*perm_) + " is not a permutation of [0, " +
                               std::to_string(rank) + ")");
      }
      seen[static_cast<size_t>(a)] = true;
      p[i] = a;
    }
  } else {
    for (size_t i = 0; i < rank; ++i) p[i] = static_cast<int64_t>(rank - 1 - i);
  }
  const std::vector<int64_t> in_strides = x.shape.Strides();
  std::vector<int64_t> out_dims(rank);
  std::vector<int64_t> meta(2 * rank);
  for (size_t i = 0; i < rank; ++i) {
    out_dims[i] = x.shape[static_cast<size_t>(p[i])];
    meta[i] = out_dims[i];
    meta[rank + i] = in_strides[static_cast<size_t>(p[i])];
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, Shape(out_dims)));
  ONNXGATE_RETURN_IF_ERROR(cl_->Run("transpose_f32", {static_cast<size_t>(y.NumElements())},
                                    {x.arg, y.arg(), KernelArg::Longs(std::move(meta)),
                                     KernelArg::Int(static_cast<int32_t>(rank))}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ConcatKernel::Create(const KernelInfo& info, Context cl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis"));
  return std::unique_ptr<OpKernel>(
      new ConcatKernel(std::move(cl), axis, info.since_version() >= 11));
}

Status ConcatKernel::Compute(KernelContext& ctx) const {
  std::vector<ClInput> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(ClInput t, GetClInput(ctx, *cl_, i, "inputs"));
    inputs.push_back(std::move(t));
  }
  if (inputs.empty()) return InvalidArgument("needs at least one input");
  const Shape& first = inputs[0].shape;
  if (first.rank() == 0) return InvalidArgument("cannot concatenate scalars");
  ONNXGATE_ASSIGN_OR_RETURN(
      int64_t axis, NormalizeAxisOf(axis_, static_cast<int64_t>(first.rank()), allow_negative_));
  std::vector<int64_t> out_dims = first.dims();
  out_dims[static_cast<size_t>(axis)] = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Shape& s = inputs[k].shape;
    bool compatible = s.rank() == first.rank();
    for (size_t d = 0; compatible && d < s.rank(); ++d) {
      compatible = static_cast<int64_t>(d) == axis || s[d] == first[d];
    }
    if (!compatible) {
      return InvalidArgument("input " + std::to_string(k) + " of shape " + s.ToString() +
                             " does not match input 0 of shape " + first.ToString() +
                             " outside axis " + std::to_string(axis));
    }
    out_dims[static_cast<size_t>(axis)] += s[static_cast<size_t>(axis)];
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, Shape(out_dims)));
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < first.rank(); ++d) inner *= first[d];
  const int64_t y_block = out_dims[static_cast<size_t>(axis)] * inner;
  int64_t at = 0;
  for (const ClInput& t : inputs) {
    const int64_t block = t.shape[static_cast<size_t>(axis)] * inner;
    if (t.NumElements() > 0) {
      // Each launch writes its slab into Y's one buffer, where the earlier slabs stay.
      ONNXGATE_RETURN_IF_ERROR(cl_->Run(
          "concat_copy_f32", {static_cast<size_t>(t.NumElements())},
          {t.arg, y.arg(), KernelArg::Long(block), KernelArg::Long(y_block), KernelArg::Long(at)}));
    }
    at += block;
  }
  ctx.set_output(0, y.Take());
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ReshapeKernel::Create(const KernelInfo& info, Context cl) {
  bool allow_zero = false;
  if (info.since_version() >= 14) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t v, info.GetInt("allowzero", 0));
    allow_zero = v != 0;
  }
  return std::unique_ptr<OpKernel>(new ReshapeKernel(std::move(cl), allow_zero));
}

namespace {

// Input 0 (`name`) under the shape `reshape` gives for its shape: a host tensor's storage, or a
// resident tensor's device buffer (no kernel writes a buffer once it holds a value).
template <typename ShapeOf>
Status SetView(KernelContext& ctx, const Context& cl, const char* name, ShapeOf reshape) {
  ONNXGATE_ASSIGN_OR_RETURN(const OpenClResident* resident, ResidentInput(ctx, *cl, 0, name));
  const Tensor* host = nullptr;
  if (resident == nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(host, FloatInput(ctx, 0, name));
  }
  const Shape& in = resident != nullptr ? resident->shape() : host->shape();
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, reshape(in));
  if (host != nullptr) {
    ctx.set_output(0, host->Reshaped(std::move(out)));
    return OkStatus();
  }
  ctx.set_output(0, Value::FromResident(std::make_shared<const OpenClResident>(
                        cl, resident->buffer(), std::move(out))));
  return OkStatus();
}

}  // namespace

Status ReshapeKernel::Compute(KernelContext& ctx) const {
  // int64, so never resident: read on the host.
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* shape, GetInput(ctx, 1, "shape"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> requested, ToInt64List(*shape, "shape"));
  return SetView(ctx, cl_, "data",
                 [&](const Shape& in) { return ReshapeShape(in, requested, allow_zero_); });
}

StatusOr<std::unique_ptr<OpKernel>> FlattenKernel::Create(const KernelInfo& info, Context cl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 1));
  return std::unique_ptr<OpKernel>(
      new FlattenKernel(std::move(cl), axis, info.since_version() >= 11));
}

Status FlattenKernel::Compute(KernelContext& ctx) const {
  return SetView(ctx, cl_, "input",
                 [&](const Shape& in) { return FlattenShape(in, axis_, allow_negative_); });
}

}  // namespace onnxgate::opencl_ep
