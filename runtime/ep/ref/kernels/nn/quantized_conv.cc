// ConvInteger and QLinearConv: the zero points are subtracted first, so padding contributes 0
// (as if the input were padded with its zero point), then the convolution is lowered to im2col
// and matrix products in double, which is exact for 8-bit operands (every partial sum stays far
// below 2^53).
#include "runtime/ep/ref/kernels/nn/quantized_conv.h"

#include <Eigen/Core>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Status CheckEightBit(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kInt8 && t.dtype() != DataType::kUint8) {
    return InvalidArgument(std::string("'") + name + "' must be int8 or uint8, got " +
                           DataTypeShortName(t.dtype()));
  }
  return OkStatus();
}

// The values of a per-tensor (one element) or per-output-channel (1-D of m elements) parameter,
// expanded to m values.
template <typename V>
StatusOr<std::vector<V>> PerChannel(const std::vector<V>& values, const Shape& shape, int64_t m,
                                    const char* name) {
  if (values.size() == 1 && shape.rank() <= 1)
    return std::vector<V>(static_cast<size_t>(m), values[0]);
  if (shape.rank() == 1 && shape[0] == m) return values;
  return InvalidArgument(std::string("'") + name +
                         "' must be a scalar or a 1-D tensor of one value per output channel (" +
                         std::to_string(m) + "), got shape " + shape.ToString());
}

StatusOr<int64_t> ScalarZeroPoint(const Tensor* zp, const Tensor& of, const char* name) {
  if (zp == nullptr) return int64_t{0};
  if (zp->dtype() != of.dtype()) {
    return InvalidArgument(std::string("'") + name + "' must have the type of its input, " +
                           DataTypeShortName(of.dtype()) + ", got " +
                           DataTypeShortName(zp->dtype()));
  }
  if (zp->NumElements() != 1 || zp->shape().rank() > 1) {
    return InvalidArgument(std::string("'") + name + "' must be a scalar, got shape " +
                           zp->shape().ToString());
  }
  return IntScalarOf(*zp, name);
}

// The accumulators of the convolution, [n, m, output...], from zero-point-shifted inputs.
struct ConvSizes {
  int64_t n, c, m, group;
  WindowGeometry g;
};

std::vector<double> ConvAccumulate(const ConvSizes& s, const std::vector<double>& x,
                                   const std::vector<double>& w) {
  const int64_t in_plane = ref::Product(s.g.input);
  const int64_t out_plane = ref::Product(s.g.output);
  const int64_t kernel = ref::Product(s.g.kernel);
  const int64_t cg = s.c / s.group;
  const int64_t mg = s.m / s.group;
  const std::vector<int64_t> table = ref::WindowIndexTable(s.g);
  std::vector<double> y(static_cast<size_t>(s.n * s.m * out_plane), 0.0);
  RowMajorMatrix col(cg * kernel, out_plane);
  for (int64_t img = 0; img < s.n; ++img) {
    for (int64_t grp = 0; grp < s.group; ++grp) {
      ref::Im2Col(x.data() + (img * s.c + grp * cg) * in_plane, cg, s.g, table, col.data());
      Eigen::Map<const RowMajorMatrix> wg(w.data() + grp * mg * cg * kernel, mg, cg * kernel);
      Eigen::Map<RowMajorMatrix> yg(y.data() + (img * s.m + grp * mg) * out_plane, mg, out_plane);
      yg.noalias() = wg * col;
    }
  }
  return y;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> QuantizedConvKernel::Create(const KernelInfo& info) {
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t group, info.GetInt("group", 1));
  if (group < 1) {
    return InvalidArgument("'group' must be >= 1, got " + std::to_string(group));
  }
  return std::unique_ptr<OpKernel>(
      new QuantizedConvKernel(info.op_type() == "QLinearConv", std::move(attrs), group));
}

Status QuantizedConvKernel::Compute(KernelContext& ctx) const {
  const size_t x_index = 0, w_index = qlinear_ ? 3 : 1;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, x_index, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, w_index, "w"));
  ONNXGATE_RETURN_IF_ERROR(CheckEightBit(*x, "x"));
  ONNXGATE_RETURN_IF_ERROR(CheckEightBit(*w, "w"));
  const Tensor* x_zp = ctx.input_tensor(2);
  const Tensor* w_zp = ctx.input_tensor(qlinear_ ? 5 : 3);
  if (qlinear_) {
    ONNXGATE_ASSIGN_OR_RETURN(x_zp, GetInput(ctx, 2, "x_zero_point"));
    ONNXGATE_ASSIGN_OR_RETURN(w_zp, GetInput(ctx, 5, "w_zero_point"));
  }

  const Shape& xs = x->shape();
  const Shape& ws = w->shape();
  if (xs.rank() < 3 || ws.rank() != xs.rank()) {
    return InvalidArgument("x must have rank >= 3 and w the same rank, got x " + xs.ToString() +
                           " and w " + ws.ToString());
  }
  ConvSizes s{xs[0], xs[1], ws[0], group_, {}};
  if (s.c % group_ != 0 || s.m % group_ != 0 || ws[1] * group_ != s.c) {
    return InvalidArgument("with group = " + std::to_string(group_) + ", x " + xs.ToString() +
                           " and w " + ws.ToString() +
                           " need C and M divisible by group and w[1] = C / group");
  }
  std::vector<int64_t> kernel(ws.dims().begin() + 2, ws.dims().end());
  for (int64_t k : kernel) {
    if (k < 1) return InvalidArgument("w " + ws.ToString() + " has an empty spatial dim");
  }
  if (!attrs_.kernel_shape.empty() && attrs_.kernel_shape != kernel) {
    return InvalidArgument("kernel_shape " + ListToString(attrs_.kernel_shape) +
                           " does not match the spatial dims of w " + ws.ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  auto geometry = ResolveWindowGeometry(attrs_, input, kernel);
  if (!geometry.ok()) return geometry.status().WithContext("with x " + xs.ToString());
  s.g = std::move(geometry).value();
  std::vector<int64_t> out_dims = {s.n, s.m};
  out_dims.insert(out_dims.end(), s.g.output.begin(), s.g.output.end());
  const Shape out_shape(std::move(out_dims));

  // Subtract the zero points: x per tensor, w per tensor or per output channel.
  ONNXGATE_ASSIGN_OR_RETURN(int64_t xz, ScalarZeroPoint(x_zp, *x, "x_zero_point"));
  std::vector<int64_t> wz(static_cast<size_t>(s.m), 0);
  if (w_zp != nullptr) {
    if (w_zp->dtype() != w->dtype()) {
      return InvalidArgument(std::string("'w_zero_point' must have w's type ") +
                             DataTypeShortName(w->dtype()) + ", got " +
                             DataTypeShortName(w_zp->dtype()));
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> raw, ToInt64s(*w_zp, "w_zero_point"));
    ONNXGATE_ASSIGN_OR_RETURN(wz, PerChannel(raw, w_zp->shape(), s.m, "w_zero_point"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> xi, ToInt64s(*x, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> wi, ToInt64s(*w, "w"));
  std::vector<double> xd(xi.size()), wd(wi.size());
  for (size_t i = 0; i < xi.size(); ++i) xd[i] = static_cast<double>(xi[i] - xz);
  const int64_t per_filter = s.m == 0 ? 0 : static_cast<int64_t>(wi.size()) / s.m;
  for (size_t i = 0; i < wi.size(); ++i) {
    wd[i] =
        static_cast<double>(wi[i] - wz[static_cast<size_t>(static_cast<int64_t>(i) / per_filter)]);
  }
  std::vector<double> acc = ConvAccumulate(s, xd, wd);
  const int64_t out_plane = ref::Product(s.g.output);

  if (!qlinear_) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kInt32, out_shape));
    int32_t* out = y.mutable_data<int32_t>();
    for (size_t i = 0; i < acc.size(); ++i) {
      out[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(acc[i])));
    }
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }

  // QLinearConv: add the int32 bias, then requantize per output channel.
  const char* names[] = {"x_scale", "w_scale", "y_scale", "y_zero_point"};
  const size_t indices[] = {1, 4, 6, 7};
  const Tensor* q[4];
  for (size_t i = 0; i < 4; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(q[i], GetInput(ctx, indices[i], names[i]));
  }
  ONNXGATE_ASSIGN_OR_RETURN(double x_scale, FloatScalarOf(*q[0], "x_scale"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> w_scale_raw, FloatsOf(*q[1], "w_scale"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> w_scale,
                            PerChannel(w_scale_raw, q[1]->shape(), s.m, "w_scale"));
  ONNXGATE_ASSIGN_OR_RETURN(double y_scale, FloatScalarOf(*q[2], "y_scale"));
  ONNXGATE_RETURN_IF_ERROR(CheckEightBit(*q[3], "y_zero_point"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t yz, IntScalarOf(*q[3], "y_zero_point"));
  if (const Tensor* b = ctx.input_tensor(8)) {
    if (b->dtype() != DataType::kInt32 || b->shape().rank() != 1 || b->shape()[0] != s.m) {
      return InvalidArgument("B must be int32 of shape [" + std::to_string(s.m) + "], got " +
                             DataTypeShortName(b->dtype()) + b->shape().ToString());
    }
    for (size_t i = 0; i < acc.size(); ++i) {
      acc[i] += b->data<int32_t>()[(static_cast<int64_t>(i) / out_plane) % s.m];
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(q[3]->dtype(), out_shape));
  Status st = VisitNumericTypes(y.dtype(), [&](auto tag) -> Status {
    using Q = decltype(tag);
    if constexpr (std::is_integral_v<Q>) {
      Q* out = y.mutable_data<Q>();
      for (size_t i = 0; i < acc.size(); ++i) {
        const int64_t channel = (static_cast<int64_t>(i) / out_plane) % s.m;
        const double real = acc[i] * x_scale * w_scale[static_cast<size_t>(channel)];
        out[i] = SaturateTo<Q>(RoundHalfToEven(real / y_scale) + static_cast<double>(yz));
      }
      return OkStatus();
    } else {
      return Internal("y_zero_point is not an integer type");
    }
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
