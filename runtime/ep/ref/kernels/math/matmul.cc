// MatMul: batched matrix products; float types in double through Eigen, integers with wrap-around.
#include "runtime/ep/ref/kernels/math/matmul.h"

#include <Eigen/Core>
#include <type_traits>

#include "runtime/ep/ref/kernels/common/nn_util.h"

namespace onnxgate::ref_nn {

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

StatusOr<MatMulPlan> PlanMatMul(const Shape& a, const Shape& b) {
  if (a.rank() == 0 || b.rank() == 0) {
    return InvalidArgument("MatMul: operands must have rank >= 1, got A " + a.ToString() +
                           " and B " + b.ToString());
  }
  // 1-D operands become a 1 x K row (A) or a K x 1 column (B).
  std::vector<int64_t> ad = a.dims(), bd = b.dims();
  if (a.rank() == 1) ad.insert(ad.begin(), 1);
  if (b.rank() == 1) bd.push_back(1);
  MatMulPlan plan;
  plan.m = ad[ad.size() - 2];
  plan.k = ad[ad.size() - 1];
  plan.n = bd[bd.size() - 1];
  if (bd[bd.size() - 2] != plan.k) {
    return InvalidArgument("MatMul: inner dims differ: A " + a.ToString() +
                           " has K = " + std::to_string(plan.k) + ", B " + b.ToString() +
                           " has K = " + std::to_string(bd[bd.size() - 2]));
  }
  Shape a_batch(std::vector<int64_t>(ad.begin(), ad.end() - 2));
  Shape b_batch(std::vector<int64_t>(bd.begin(), bd.end() - 2));
  auto batch = BroadcastShapes(a_batch, b_batch);
  if (!batch.ok())
    return batch.status().WithContext("MatMul: batch dims of A " + a.ToString() + " and B " +
                                      b.ToString());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> a_index,
                            UnidirectionalBroadcastIndex(a_batch, *batch));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> b_index,
                            UnidirectionalBroadcastIndex(b_batch, *batch));
  for (size_t i = 0; i < a_index.size(); ++i) {
    plan.a_offsets.push_back(a_index[i] * plan.m * plan.k);
    plan.b_offsets.push_back(b_index[i] * plan.k * plan.n);
  }
  std::vector<int64_t> out = batch->dims();
  if (a.rank() > 1) out.push_back(plan.m);
  if (b.rank() > 1) out.push_back(plan.n);
  plan.output = Shape(std::move(out));
  ONNXGATE_RETURN_IF_ERROR(plan.output.Validate());
  return plan;
}

Status MatMul::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, RequiredInput(ctx, 0, "MatMul", "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, RequiredInput(ctx, 1, "MatMul", "B"));
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

}  // namespace onnxgate::ref_nn
