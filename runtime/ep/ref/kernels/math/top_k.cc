// TopK.
#include "runtime/ep/ref/kernels/math/top_k.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// A strict weak order with NaN above every number (and NaNs equal to each other).
template <typename C>
bool LessWithNanLast(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

}  // namespace

StatusOr<TopKResult> TopK(const Tensor& x, int64_t axis, int64_t k, bool largest) {
  const std::vector<int64_t>& dims = x.shape().dims();
  if (dims.empty()) return InvalidArgument("TopK needs an input of rank >= 1, got a scalar");
  const int64_t n = dims[axis];
  if (k < 0 || k > n) {
    return InvalidArgument("k = " + std::to_string(k) + " is outside [0, " + std::to_string(n) +
                           "], the size of axis " + std::to_string(axis) + " of input shape " +
                           x.shape().ToString());
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  std::vector<int64_t> out_dims = dims;
  out_dims[axis] = k;
  TopKResult r;
  ONNXGATE_ASSIGN_OR_RETURN(r.values, NewTensor(x.dtype(), Shape(out_dims)));
  ONNXGATE_ASSIGN_OR_RETURN(r.indices, NewTensor(DataType::kInt64, Shape(out_dims)));
  if (r.values.NumElements() == 0) return r;
  int64_t* out_idx = r.indices.mutable_data<int64_t>();
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = r.values.mutable_data<T>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* row = in + o * n * inner + i;
        auto at = [&](int64_t j) { return ToCompute(row[j * inner]); };
        std::iota(order.begin(), order.end(), 0);
        // stable_sort keeps the lower index first among equal values.
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return largest ? LessWithNanLast(at(b), at(a)) : LessWithNanLast(at(a), at(b));
        });
        for (int64_t j = 0; j < k; ++j) {
          const int64_t dst = (o * k + j) * inner + i;
          out[dst] = row[order[j] * inner];
          out_idx[dst] = order[j];
        }
      }
    }
    return OkStatus();
  }));
  return r;
}

StatusOr<std::unique_ptr<OpKernel>> TopKKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  const bool k_input = info.since_version() >= 10;
  int64_t k = 0;
  if (!k_input) {
    ONNXGATE_ASSIGN_OR_RETURN(k, info.GetInt("k"));
  }
  int64_t largest = 1;
  if (info.since_version() >= 11) {
    ONNXGATE_ASSIGN_OR_RETURN(largest, info.GetInt("largest", 1));
    // `sorted` only allows an unspecified order, which the sorted output satisfies; read it so
    // that a malformed attribute is still reported.
    ONNXGATE_ASSIGN_OR_RETURN(int64_t sorted, info.GetInt("sorted", 1));
    (void)sorted;
  }
  return std::unique_ptr<OpKernel>(new TopKKernel(axis, k, k_input, largest != 0));
}

Status TopKKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  int64_t k = k_attribute_;
  if (k_input_) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* kt, GetInput(ctx, 1, "K"));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> ks,
                              ToInt64List(*kt, "K", /*allow_scalar=*/true));
    if (ks.size() != 1) {
      return InvalidArgument("K must hold exactly one value, got shape " + kt->shape().ToString());
    }
    k = ks[0];
  }
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  if (rank == 0) return InvalidArgument("X must have rank >= 1, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(TopKResult r, TopK(*x, axis, k, largest_));
  ctx.set_output(0, std::move(r.values));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(r.indices));
  return OkStatus();
}

}  // namespace onnxgate::ref
