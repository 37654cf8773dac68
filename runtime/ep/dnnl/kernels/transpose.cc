// Transpose as a oneDNN reorder (see transpose.h).
#include "runtime/ep/dnnl/kernels/transpose.h"

#include <algorithm>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::vector<int64_t>> ResolvedPermutation(const std::vector<int64_t>& perm, size_t rank) {
  std::vector<int64_t> out = perm;
  if (out.empty()) {
    for (size_t i = 0; i < rank; ++i) out.push_back(static_cast<int64_t>(rank - 1 - i));
  }
  if (out.size() != rank) {
    return InvalidArgument("perm has " + std::to_string(out.size()) + " entries for data of rank " +
                           std::to_string(rank));
  }
  std::vector<bool> seen(rank, false);
  for (int64_t p : out) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(p)]) {
      return InvalidArgument("perm " + ListToString(out) + " is not a permutation of 0.." +
                             std::to_string(rank - 1));
    }
    seen[static_cast<size_t>(p)] = true;
  }
  return out;
}

PermutedView PermuteDense(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm) {
  const size_t rank = dims.size();
  std::vector<int64_t> dense(rank, 1);
  for (size_t i = rank; i-- > 1;) dense[i - 1] = dense[i] * dims[i];
  PermutedView view{std::vector<int64_t>(rank), std::vector<int64_t>(rank)};
  for (size_t i = 0; i < rank; ++i) {
    view.dims[i] = dims[static_cast<size_t>(perm[i])];
    view.strides[i] = dense[static_cast<size_t>(perm[i])];
  }
  return view;
}

StatusOr<std::unique_ptr<OpKernel>> TransposeKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl) {
  std::vector<int64_t> perm;
  if (info.has_attribute("perm")) {
    ONNXGATE_ASSIGN_OR_RETURN(perm, info.GetInts("perm"));
  }
  return std::unique_ptr<OpKernel>(new TransposeKernel(std::move(dnnl), std::move(perm)));
}

Status TransposeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  const Shape& xs = x->shape();
  const size_t rank = xs.rank();
  ONNXGATE_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, ResolvedPermutation(perm_, rank));
  const PermutedView view = PermuteDense(xs.dims(), perm);
  const std::vector<int64_t>& out_dims = view.dims;
  const std::vector<int64_t>& from_strides = view.strides;
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewUninitializedTensor(DataType::kFloat, Shape(out_dims)));
  if (y.NumElements() == 0) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (rank <= 1) {  // nothing moves
    std::copy(x->data<float>(), x->data<float>() + x->NumElements(), y.mutable_data<float>());
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (rank > DNNL_MAX_NDIMS) {
    return Unimplemented("rank " + std::to_string(rank) + " is more than oneDNN's " +
                         std::to_string(DNNL_MAX_NDIMS) + " dims");
  }
  PrimitiveCache<TransposeEntry>::Key key = xs.dims();
  key.insert(key.end(), perm.begin(), perm.end());
  auto make = [&]() -> StatusOr<std::shared_ptr<const TransposeEntry>> {
    auto entry = std::make_shared<TransposeEntry>();
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
      entry->from =
          dnnl::memory::desc(DimsOf(out_dims), dnnl::memory::data_type::f32, DimsOf(from_strides));
      entry->to = PlainDesc(DimsOf(out_dims));
      entry->pd = dnnl::reorder::primitive_desc(dnnl_->engine(), entry->from, dnnl_->engine(),
                                                entry->to, DefaultAttr());
      entry->primitive = dnnl::reorder(entry->pd);
      return OkStatus();
    }));
    return std::shared_ptr<const TransposeEntry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const TransposeEntry> entry, cache_.Get(key, make));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd,
                          {{DNNL_ARG_FROM, WrapMemory(*dnnl_, entry->from, x->data<float>())},
                           {DNNL_ARG_TO, WrapMemory(*dnnl_, entry->to, y.mutable_data<float>())}});
    return OkStatus();
  }));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
