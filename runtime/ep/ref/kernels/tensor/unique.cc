// Unique.
#include "runtime/ep/ref/kernels/tensor/unique.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

template <typename T>
struct IsComplexT : std::false_type {};
template <typename F>
struct IsComplexT<std::complex<F>> : std::true_type {};

// -1, 0 or 1; a total order in which NaN is above every number and equal to itself.
template <typename T>
int Compare(const T& a, const T& b) {
  if constexpr (IsComplexT<T>::value) {
    const int re = Compare(a.real(), b.real());
    return re != 0 ? re : Compare(a.imag(), b.imag());
  } else if constexpr (kIsFloat<T>) {
    const auto ca = ToCompute(a);
    const auto cb = ToCompute(b);
    const bool na = std::isnan(ca);
    const bool nb = std::isnan(cb);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
    return ca < cb ? -1 : (cb < ca ? 1 : 0);
  } else {
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

}  // namespace

StatusOr<UniqueResult> Unique(const Tensor& x, std::optional<int64_t> axis, bool sorted) {
  const std::vector<int64_t>& dims = x.shape().dims();
  // The input as [outer, n, inner]; slice k is every (o, k, i), ordered by o then i.
  int64_t outer = 1, n = x.NumElements(), inner = 1;
  if (axis.has_value()) {
    n = dims[*axis];
    for (int64_t d = 0; d < *axis; ++d) outer *= dims[d];
    for (size_t d = static_cast<size_t>(*axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  }
  UniqueResult r;
  std::vector<int64_t> first;   // per unique slice, in output order: its first input index
  std::vector<int64_t> counts;  // per unique slice, in output order
  std::vector<int64_t> inverse(static_cast<size_t>(n));
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* in = x.data<T>();
    auto compare_slices = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          const int c = Compare(in[(o * n + a) * inner + i], in[(o * n + b) * inner + i]);
          if (c != 0) return c;
        }
      }
      return 0;
    };
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    // Stable, so each run of equal slices starts with its first occurrence.
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return compare_slices(a, b) < 0; });
    std::vector<int64_t> group_of(static_cast<size_t>(n));  // in sorted group numbering
    for (size_t j = 0; j < order.size(); ++j) {
      if (j == 0 || compare_slices(order[j - 1], order[j]) != 0) {
        first.push_back(order[j]);
        counts.push_back(0);
      }
      group_of[order[j]] = static_cast<int64_t>(first.size()) - 1;
      ++counts.back();
    }
    std::vector<int64_t> position(first.size());  // sorted group -> output position
    std::iota(position.begin(), position.end(), 0);
    if (!sorted) {
      std::vector<int64_t> by_first(first.size());
      std::iota(by_first.begin(), by_first.end(), 0);
      std::sort(by_first.begin(), by_first.end(),
                [&](int64_t a, int64_t b) { return first[a] < first[b]; });
      std::vector<int64_t> f(first.size()), c(first.size());
      for (size_t p = 0; p < by_first.size(); ++p) {
        position[by_first[p]] = static_cast<int64_t>(p);
        f[p] = first[by_first[p]];
        c[p] = counts[by_first[p]];
      }
      first = std::move(f);
      counts = std::move(c);
    }
    for (int64_t k = 0; k < n; ++k) inverse[k] = position[group_of[k]];

    const int64_t u = static_cast<int64_t>(first.size());
    std::vector<int64_t> y_dims = {u};
    if (axis.has_value()) {
      y_dims = dims;
      y_dims[*axis] = u;
    }
    ONNXGATE_ASSIGN_OR_RETURN(r.y, NewTensor(x.dtype(), Shape(y_dims)));
    T* out = r.y.mutable_data<T>();
    for (int64_t p = 0; p < u; ++p) {
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          out[(o * u + p) * inner + i] = in[(o * n + first[p]) * inner + i];
        }
      }
    }
    return OkStatus();
  }));
  const int64_t u = static_cast<int64_t>(first.size());
  r.indices = Tensor::FromVector<int64_t>(Shape{u}, first);
  r.inverse_indices = Tensor::FromVector<int64_t>(Shape{n}, inverse);
  r.counts = Tensor::FromVector<int64_t>(Shape{u}, counts);
  return r;
}

StatusOr<std::unique_ptr<OpKernel>> UniqueKernel::Create(const KernelInfo& info) {
  std::optional<int64_t> axis;
  if (info.has_attribute("axis")) {
    ONNXGATE_ASSIGN_OR_RETURN(axis, info.GetInt("axis"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t sorted, info.GetInt("sorted", 1));
  return std::unique_ptr<OpKernel>(new UniqueKernel(axis, sorted != 0));
}

Status UniqueKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  std::optional<int64_t> axis;
  if (axis_.has_value()) {
    const int64_t rank = static_cast<int64_t>(x->shape().rank());
    if (rank == 0) return InvalidArgument("'axis' needs an input of rank >= 1, got a scalar");
    ONNXGATE_ASSIGN_OR_RETURN(axis, NormalizeAxisOf(*axis_, rank, /*allow_negative=*/true));
  }
  ONNXGATE_ASSIGN_OR_RETURN(UniqueResult r, Unique(*x, axis, sorted_));
  ctx.set_output(0, std::move(r.y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(r.indices));
  if (ctx.num_outputs() > 2) ctx.set_output(2, std::move(r.inverse_indices));
  if (ctx.num_outputs() > 3) ctx.set_output(3, std::move(r.counts));
  return OkStatus();
}

}  // namespace onnxgate::ref
