// A MatMul between Transposes on one strided oneDNN matmul (see permuted_matmul.h).
#include "runtime/ep/dnnl/kernels/permuted_matmul.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/ep/dnnl/kernels/transpose.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

// Operand `index` of the product as the primitive reads it: the input's dims and strides, seen
// through the claimed Transpose's permutation when there is one.
StatusOr<PermutedView> OperandView(const Tensor& t, bool transposed,
                                   const std::vector<int64_t>& perm, const char* name) {
  if (t.dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("'") + name + "' must be float, got " +
                           DataTypeShortName(t.dtype()));
  }
  const std::vector<int64_t>& dims = t.shape().dims();
  std::vector<int64_t> identity(dims.size());
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int64_t>(i);
  std::vector<int64_t> resolved = identity;
  if (transposed) {
    StatusOr<std::vector<int64_t>> p = ResolvedPermutation(perm, dims.size());
    if (!p.ok()) return p.status().WithContext(std::string("the Transpose of '") + name + "'");
    resolved = *std::move(p);
  }
  PermutedView view = PermuteDense(dims, resolved);
  if (view.dims.size() < 2) {
    return InvalidArgument(std::string("'") + name + "' must have rank >= 2 here, got " +
                           t.shape().ToString());
  }
  return view;
}

// `view` with leading dims of 1 up to `rank` (numpy's alignment of batch dims).
PermutedView AlignedTo(PermutedView view, size_t rank) {
  const size_t extra = rank - view.dims.size();
  view.dims.insert(view.dims.begin(), extra, 1);
  view.strides.insert(view.strides.begin(), extra, 1);
  return view;
}

dnnl::memory::desc StridedDesc(const PermutedView& view) {
  return dnnl::memory::desc(DimsOf(view.dims), dnnl::memory::data_type::f32, DimsOf(view.strides));
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> PermutedMatMulKernel::Create(
    std::shared_ptr<const DnnlContext> dnnl, MatMulPermutations permutations) {
  if (permutations.scale && !std::isfinite(*permutations.scale)) {
    return Unimplemented("a non-finite scale turns the zeros of an empty product into NaN");
  }
  return std::unique_ptr<OpKernel>(
      new PermutedMatMulKernel(std::move(dnnl), std::move(permutations)));
}

Status PermutedMatMulKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  const MatMulPermutations& p = permutations_;
  ONNXGATE_ASSIGN_OR_RETURN(PermutedView av, OperandView(*a, p.a_transposed, p.a_perm, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(PermutedView bv, OperandView(*b, p.b_transposed, p.b_perm, "B"));
  const size_t rank = std::max(av.dims.size(), bv.dims.size());
  av = AlignedTo(std::move(av), rank);
  bv = AlignedTo(std::move(bv), rank);
  const int64_t m = av.dims[rank - 2], k = av.dims[rank - 1], n = bv.dims[rank - 1];
  if (bv.dims[rank - 2] != k) {
    return InvalidArgument("A " + Shape(av.dims).ToString() + " and B " +
                           Shape(bv.dims).ToString() +
                           " (as the MatMul reads them) do not agree on the inner dimension");
  }
  const Shape batch_a(std::vector<int64_t>(av.dims.begin(), av.dims.end() - 2));
  const Shape batch_b(std::vector<int64_t>(bv.dims.begin(), bv.dims.end() - 2));
  StatusOr<Shape> batch = BroadcastShapeOf({batch_a, batch_b});
  if (!batch.ok()) {
    return batch.status().WithContext("the batch dims of A " + Shape(av.dims).ToString() +
                                      " and B " + Shape(bv.dims).ToString());
  }
  std::vector<int64_t> y_dims = batch->dims();
  y_dims.push_back(m);
  y_dims.push_back(n);
  // The output is Y, or Y permuted: Y is written through the strides that put each of its
  // elements where the Transpose would.
  std::vector<int64_t> y_perm(rank);
  for (size_t i = 0; i < rank; ++i) y_perm[i] = static_cast<int64_t>(i);
  if (p.y_transposed) {
    StatusOr<std::vector<int64_t>> resolved = ResolvedPermutation(p.y_perm, rank);
    if (!resolved.ok()) return resolved.status().WithContext("the Transpose of the MatMul's Y");
    y_perm = *std::move(resolved);
  }
  const PermutedView out = PermuteDense(y_dims, y_perm);
  PermutedView y_view{y_dims, std::vector<int64_t>(rank)};
  std::vector<int64_t> out_dense(rank, 1);
  for (size_t i = rank; i-- > 1;) out_dense[i - 1] = out_dense[i] * out.dims[i];
  for (size_t i = 0; i < rank; ++i) y_view.strides[static_cast<size_t>(y_perm[i])] = out_dense[i];

  // The primitive writes every element; an empty sum (K = 0) leaves zeros, as scale * 0.
  const Shape out_shape(out.dims);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, k > 0 ? NewUninitializedTensor(DataType::kFloat, out_shape)
                                            : NewTensor(DataType::kFloat, out_shape));
  if (y.NumElements() == 0 || k == 0) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  if (rank > DNNL_MAX_NDIMS) {
    return Unimplemented("rank " + std::to_string(rank) + " is more than oneDNN's " +
                         std::to_string(DNNL_MAX_NDIMS) + " dims");
  }
  PrimitiveCache<Entry>::Key key = a->shape().dims();
  key.push_back(-1);
  key.insert(key.end(), b->shape().dims().begin(), b->shape().dims().end());
  auto make = [&]() -> StatusOr<std::shared_ptr<const Entry>> {
    auto entry = std::make_shared<Entry>();
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "matmul", [&]() -> Status {
      entry->a = StridedDesc(av);
      entry->b = StridedDesc(bv);
      entry->y = StridedDesc(y_view);
      dnnl::primitive_attr attr = DefaultAttr();
      if (p.scale) attr.set_output_scales(0, {*p.scale});
      entry->pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(entry->a, entry->b, entry->y),
                                               attr, dnnl_->engine());
      entry->primitive = dnnl::matmul(entry->pd);
      return OkStatus();
    }));
    return std::shared_ptr<const Entry>(std::move(entry));
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const Entry> entry, cache_.Get(key, make));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "matmul", [&]() -> Status {
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd,
                          {{DNNL_ARG_SRC, WrapMemory(*dnnl_, entry->a, a->data<float>())},
                           {DNNL_ARG_WEIGHTS, WrapMemory(*dnnl_, entry->b, b->data<float>())},
                           {DNNL_ARG_DST, WrapMemory(*dnnl_, entry->y, y.mutable_data<float>())}});
    return OkStatus();
  }));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
