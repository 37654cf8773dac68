// MatMulInteger and QLinearMatMul.
#include "runtime/ep/ref/kernels/math/quantized_matmul.h"

#include <string>
#include <type_traits>
#include <vector>

#include "runtime/ep/ref/kernels/math/matmul.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

Status CheckEightBit(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kInt8 && t.dtype() != DataType::kUint8) {
    return InvalidArgument(std::string("'") + name + "' must be int8 or uint8, got " +
                           DataTypeShortName(t.dtype()));
  }
  return OkStatus();
}

// x - zero_point for every element of x. For A (`is_a`), a 1-D zero point of one value per row
// is aligned with the rows; any other zero point must broadcast to x.
StatusOr<std::vector<int64_t>> Shifted(const Tensor& x, const Tensor* zero_point, bool is_a,
                                       const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ToInt64s(x, name));
  if (zero_point == nullptr) return v;
  if (zero_point->dtype() != x.dtype()) {
    return InvalidArgument(std::string("the zero point of '") + name + "' must have its type " +
                           DataTypeShortName(x.dtype()) + ", got " +
                           DataTypeShortName(zero_point->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> zp, ToInt64s(*zero_point, "zero_point"));
  if (zp.size() == 1) {
    for (int64_t& e : v) e -= zp[0];
    return v;
  }
  Shape zs = zero_point->shape();
  const Shape& xs = x.shape();
  if (is_a && zs.rank() == 1 && xs.rank() >= 2 && zs[0] == xs[xs.rank() - 2]) {
    zs = Shape({zs[0], 1});  // one value per row
  }
  auto index = UnidirectionalBroadcastIndex(zs, xs);
  if (!index.ok()) {
    return index.status().WithContext(std::string("the zero point of '") + name + "'");
  }
  for (size_t i = 0; i < v.size(); ++i) v[i] -= zp[static_cast<size_t>((*index)[i])];
  return v;
}

// acc[batch, r, c] = sum over j of a[r, j] * b[j, c]: exact in int64 for V = int64_t, and in
// double for the products of 8-bit values (integers or FLOAT8) as long as the sums stay below
// 2^53.
template <typename V>
std::vector<V> Product(const MatMulPlan& plan, const std::vector<V>& a, const std::vector<V>& b) {
  const size_t batches = plan.a_offsets.size();
  std::vector<V> y(batches * static_cast<size_t>(plan.m * plan.n), 0);
  for (size_t i = 0; i < batches; ++i) {
    const V* ab = a.data() + plan.a_offsets[i];
    const V* bb = b.data() + plan.b_offsets[i];
    V* yb = y.data() + i * plan.m * plan.n;
    for (int64_t r = 0; r < plan.m; ++r) {
      for (int64_t j = 0; j < plan.k; ++j) {
        const V av = ab[r * plan.k + j];
        for (int64_t c = 0; c < plan.n; ++c) yb[r * plan.n + c] += av * bb[j * plan.n + c];
      }
    }
  }
  return y;
}

// QLinearMatMul's operand and output types: int8 and uint8, and from opset 21 the four FLOAT8
// types (not FLOAT8E8M0).
Status CheckQuantizedType(const Tensor& t, const char* name, bool allow_float8) {
  const DataType d = t.dtype();
  if (d == DataType::kInt8 || d == DataType::kUint8) return OkStatus();
  if (allow_float8 && IsFloat8(d) && d != DataType::kFloat8E8M0) return OkStatus();
  return InvalidArgument(std::string("'") + name + "' must be int8 or uint8" +
                         (allow_float8 ? " or a FLOAT8 type" : "") + ", got " +
                         DataTypeShortName(d));
}

// A scale and zero point pair that is per tensor or holds `count` values (per row or column).
struct ScaleZeroPoint {
  std::vector<double> scale;
  std::vector<double> zero_point;
  double ScaleAt(int64_t i) const { return scale.size() == 1 ? scale[0] : scale[i]; }
  double ZeroPointAt(int64_t i) const {
    return zero_point.size() == 1 ? zero_point[0] : zero_point[i];
  }
};

// The scale must be float (QLinearMatMul-10) or, with `half_scales` (21), also float16 or
// bfloat16.
StatusOr<ScaleZeroPoint> ReadScaleZeroPoint(const Tensor& scale, const Tensor& zero_point,
                                            int64_t count, const char* name, const char* what,
                                            bool half_scales) {
  const DataType st = scale.dtype();
  const bool half = st == DataType::kFloat16 || st == DataType::kBFloat16;
  if (st != DataType::kFloat && !(half_scales && half)) {
    return InvalidArgument(std::string("the scale of '") + name + "' must be float" +
                           (half_scales ? ", float16 or bfloat16" : "") + ", got " +
                           DataTypeShortName(st));
  }
  const int64_t n = scale.NumElements();
  if (scale.shape().rank() > 1 || (n != 1 && n != count)) {
    return InvalidArgument(std::string("the scale of '") + name +
                           "' must be a scalar or a 1-D tensor of one value per " + what + " (" +
                           std::to_string(count) + "), got shape " + scale.shape().ToString());
  }
  if (zero_point.NumElements() != n || zero_point.shape().rank() > 1) {
    return InvalidArgument(std::string("the zero point of '") + name + "' has shape " +
                           zero_point.shape().ToString() + ", unlike its scale " +
                           scale.shape().ToString());
  }
  ScaleZeroPoint p;
  ONNXGATE_ASSIGN_OR_RETURN(p.scale, FloatsOf(scale, "scale"));
  ONNXGATE_ASSIGN_OR_RETURN(p.zero_point, ToDoubles(zero_point));
  return p;
}

// The quantized value of `v` (already divided by the output scale) plus the zero point, as Q.
template <typename Q>
Q Quantize(double v, double zero_point) {
  if constexpr (std::is_integral_v<Q>) {
    return SaturateTo<Q>(RoundHalfToEven(v) + zero_point);
  } else {
    return Q::FromFloat(static_cast<float>(v + zero_point), /*saturate=*/true);
  }
}

}  // namespace

StatusOr<Tensor> MatMulInteger(const Tensor& a, const Tensor& b, const Tensor* a_zero_point,
                               const Tensor* b_zero_point) {
  ONNXGATE_RETURN_IF_ERROR(CheckEightBit(a, "A"));
  ONNXGATE_RETURN_IF_ERROR(CheckEightBit(b, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> av, Shifted(a, a_zero_point, /*is_a=*/true, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> bv, Shifted(b, b_zero_point, /*is_a=*/false, "B"));
  const std::vector<int64_t> acc = Product(plan, av, bv);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kInt32, plan.output));
  int32_t* out = y.mutable_data<int32_t>();
  // 8-bit products summed over K < 2^16 terms stay within int32; longer sums wrap like int32.
  for (size_t i = 0; i < acc.size(); ++i)
    out[i] = static_cast<int32_t>(static_cast<uint32_t>(acc[i]));
  return y;
}

Status MatMulIntegerKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            MatMulInteger(*a, *b, ctx.input_tensor(2), ctx.input_tensor(3)));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> QLinearMatMulKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new QLinearMatMulKernel(info.since_version() >= 21));
}

Status QLinearMatMulKernel::Compute(KernelContext& ctx) const {
  const char* names[] = {"a",       "a_scale",      "a_zero_point", "b",
                         "b_scale", "b_zero_point", "y_scale",      "y_zero_point"};
  const Tensor* in[8];
  for (size_t i = 0; i < 8; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(in[i], GetInput(ctx, i, names[i]));
  }
  const Tensor& a = *in[0];
  const Tensor& b = *in[3];
  ONNXGATE_RETURN_IF_ERROR(CheckQuantizedType(a, "a", float8_));
  ONNXGATE_RETURN_IF_ERROR(CheckQuantizedType(b, "b", float8_));
  ONNXGATE_RETURN_IF_ERROR(CheckQuantizedType(*in[7], "y_zero_point", float8_));
  if (in[2]->dtype() != a.dtype() || in[5]->dtype() != b.dtype()) {
    return InvalidArgument("a_zero_point and b_zero_point must have the types of a and b");
  }
  if (in[4]->dtype() != in[1]->dtype() || in[6]->dtype() != in[1]->dtype()) {
    return InvalidArgument(std::string("a_scale, b_scale and y_scale must have one type, got ") +
                           DataTypeShortName(in[1]->dtype()) + ", " +
                           DataTypeShortName(in[4]->dtype()) + " and " +
                           DataTypeShortName(in[6]->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(ScaleZeroPoint ap,
                            ReadScaleZeroPoint(*in[1], *in[2], plan.m, "a", "row", float8_));
  ONNXGATE_ASSIGN_OR_RETURN(ScaleZeroPoint bp,
                            ReadScaleZeroPoint(*in[4], *in[5], plan.n, "b", "column", float8_));
  ONNXGATE_ASSIGN_OR_RETURN(ScaleZeroPoint yp,
                            ReadScaleZeroPoint(*in[6], *in[7], plan.m, "y", "row", float8_));
  // Shift each operand by its zero point, row by row for a and column by column for b. The
  // shifted 8-bit values are exact in double, and so are their products and sums.
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> av, ToDoubles(a));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> bv, ToDoubles(b));
  for (size_t i = 0; i < av.size(); ++i)
    av[i] -= ap.ZeroPointAt((static_cast<int64_t>(i) / plan.k) % plan.m);
  for (size_t i = 0; i < bv.size(); ++i) bv[i] -= bp.ZeroPointAt(static_cast<int64_t>(i) % plan.n);
  const std::vector<double> acc = Product(plan, av, bv);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(in[7]->dtype(), plan.output));
  auto store = [&](auto tag) -> Status {
    using Q = decltype(tag);
    Q* out = y.mutable_data<Q>();
    for (size_t i = 0; i < acc.size(); ++i) {
      const int64_t r = (static_cast<int64_t>(i) / plan.n) % plan.m;
      const int64_t c = static_cast<int64_t>(i) % plan.n;
      const double real = acc[i] * ap.ScaleAt(r) * bp.ScaleAt(c);
      out[i] = Quantize<Q>(real / yp.ScaleAt(r), yp.ZeroPointAt(r));
    }
    return OkStatus();
  };
  if (y.dtype() == DataType::kInt8) {
    ONNXGATE_RETURN_IF_ERROR(store(int8_t{}));
  } else if (y.dtype() == DataType::kUint8) {
    ONNXGATE_RETURN_IF_ERROR(store(uint8_t{}));
  } else {
    ONNXGATE_RETURN_IF_ERROR(VisitFloat8Types(y.dtype(), store));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
