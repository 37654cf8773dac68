// MatMul: batched matrix products; float types in double through Eigen, integers with wrap-around.
#include "runtime/ep/ref/kernels/math/matmul.h"

#include <Eigen/Core>
#include <type_traits>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Y = A x B for every batch of the plan, in double.
std::vector<double> MatMulDouble(const MatMulPlan& plan, const std::vector<double>& a,
                                 const std::vector<double>& b) {
  const size_t batches = plan.a_offsets.size();
  std::vector<double> y(batches * static_cast<size_t>(plan.m * plan.n));
  for (size_t i = 0; i < batches; ++i) {
    Eigen::Map<const RowMajorMatrix> am(a.data() + plan.a_offsets[i], plan.m, plan.k);
    Eigen::Map<const RowMajorMatrix> bm(b.data() + plan.b_offsets[i], plan.k, plan.n);
    Eigen::Map<RowMajorMatrix> ym(y.data() + i * plan.m * plan.n, plan.m, plan.n);
    ym.noalias() = am * bm;
  }
  return y;
}

// Y = A x B for integer T. Sums wrap around modulo 2^bits as fixed-width integer hardware (and
// numpy) do; the arithmetic runs in uint64_t, where wrapping is defined behaviour.
template <typename T>
void MatMulInteger(const MatMulPlan& plan, const T* a, const T* b, T* y) {
  for (size_t i = 0; i < plan.a_offsets.size(); ++i) {
    const T* ab = a + plan.a_offsets[i];
    const T* bb = b + plan.b_offsets[i];
    T* yb = y + i * plan.m * plan.n;
    for (int64_t r = 0; r < plan.m; ++r) {
      for (int64_t c = 0; c < plan.n; ++c) {
        uint64_t sum = 0;
        for (int64_t j = 0; j < plan.k; ++j) {
          sum +=
              static_cast<uint64_t>(ab[r * plan.k + j]) * static_cast<uint64_t>(bb[j * plan.n + c]);
        }
        yb[r * plan.n + c] = static_cast<T>(sum);
      }
    }
  }
}

}  // namespace

Status MatMul::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  if (a->dtype() != b->dtype()) {
    return InvalidArgument(std::string("MatMul: A is ") + DataTypeName(a->dtype()) + " but B is " +
                           DataTypeName(b->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(a->shape(), b->shape()));
  const DataType dtype = a->dtype();
  if (IsFloatingPoint(dtype)) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> ad, ToDoubles(*a));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> bd, ToDoubles(*b));
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                              FromDoubles(dtype, plan.output, MatMulDouble(plan, ad, bd)));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  Tensor y(dtype, plan.output);
  Status st = VisitNumericTypes(dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) {
      MatMulInteger<T>(plan, a->data<T>(), b->data<T>(), y.mutable_data<T>());
      return OkStatus();
    } else {
      return Internal("MatMul: unexpected non-integer type");
    }
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
