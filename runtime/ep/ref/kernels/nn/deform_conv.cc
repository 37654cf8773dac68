// DeformConv in double: the deformed taps are gathered into an im2col-style matrix per image,
// then multiplied by each group's weights as Conv does.
//
// Tap k of output position p on spatial axis i samples X at
//   p_i * stride_i - pad_begin_i + k_i * dilation_i + offset[n, (og * K + k) * r + i, p]
// (r spatial axes, K taps, og the offset group of the channel), the layout ONNX's reference
// gives the offset input. The value there is interpolated linearly along every axis from the 2^r
// surrounding elements, an element outside X counting as zero; this is GridSample's bilinear
// mode with align_corners and zero padding, written in pixel coordinates.
#include "runtime/ep/ref/kernels/nn/deform_conv.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// X interpolated at the real position `pos` of one plane of shape `dims` (zeros outside).
double Interpolate(const double* plane, const std::vector<int64_t>& dims,
                   const std::vector<double>& pos) {
  const size_t rank = dims.size();
  std::vector<int64_t> base(rank);
  std::vector<double> frac(rank);
  for (size_t i = 0; i < rank; ++i) {
    const double f = std::floor(pos[i]);
    // Positions far outside X read only zeros; clamping keeps the casts defined.
    if (!(f > -2.0 && f < static_cast<double>(dims[i]) + 1.0)) return 0.0;
    base[i] = static_cast<int64_t>(f);
    frac[i] = pos[i] - f;
  }
  double value = 0.0;
  for (uint64_t corner = 0; corner < (uint64_t{1} << rank); ++corner) {
    double weight = 1.0;
    int64_t index = 0;
    bool inside = true;
    for (size_t i = 0; i < rank; ++i) {
      const bool upper = (corner >> i) & 1;
      const int64_t coord = base[i] + (upper ? 1 : 0);
      weight *= upper ? frac[i] : 1.0 - frac[i];
      if (coord < 0 || coord >= dims[i]) {
        inside = false;
        break;
      }
      index = index * dims[i] + coord;
    }
    if (inside && weight != 0.0) value += weight * plane[index];
  }
  return value;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> DeformConv::Create(const KernelInfo& info) {
  for (const char* attr : {"auto_pad", "ceil_mode"}) {
    if (info.has_attribute(attr)) {
      return InvalidArgument(std::string("'") + attr + "' is not an attribute of DeformConv");
    }
  }
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t group, info.GetInt("group", 1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t offset_group, info.GetInt("offset_group", 1));
  if (group < 1 || offset_group < 1) {
    return InvalidArgument("'group' and 'offset_group' must be >= 1, got " + std::to_string(group) +
                           " and " + std::to_string(offset_group));
  }
  return std::unique_ptr<OpKernel>(new DeformConv(std::move(attrs), group, offset_group));
}

Status DeformConv::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, 1, "W"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* offset, GetInput(ctx, 2, "offset"));
  const Tensor* b = ctx.input_tensor(3);
  const Tensor* mask = ctx.input_tensor(4);
  const Shape& xs = x->shape();
  const Shape& ws = w->shape();
  if (xs.rank() < 3 || ws.rank() != xs.rank()) {
    return InvalidArgument("X must have rank >= 3 and W the same rank, got X " + xs.ToString() +
                           " and W " + ws.ToString());
  }
  for (const Tensor* t : {w, offset, b, mask}) {
    if (t != nullptr && t->dtype() != x->dtype()) {
      return InvalidArgument("X, W, offset, B and mask must share one element type");
    }
  }
  const int64_t n = xs[0], c = xs[1], m = ws[0];
  if (c % group_ != 0 || m % group_ != 0 || ws[1] * group_ != c) {
    return InvalidArgument("with group = " + std::to_string(group_) + ", X " + xs.ToString() +
                           " and W " + ws.ToString() +
                           " need C and oC divisible by group and W[1] = C / group");
  }
  if (c % offset_group_ != 0) {
    return InvalidArgument("offset_group " + std::to_string(offset_group_) +
                           " does not divide the channel count of X " + xs.ToString());
  }
  const size_t rank = xs.rank() - 2;
  std::vector<int64_t> kernel(ws.dims().begin() + 2, ws.dims().end());
  for (int64_t k : kernel) {
    if (k < 1) return InvalidArgument("W " + ws.ToString() + " has an empty spatial dim");
  }
  if (!attrs_.kernel_shape.empty() && attrs_.kernel_shape != kernel) {
    return InvalidArgument("kernel_shape " + DimsToString(attrs_.kernel_shape) +
                           " does not match the spatial dims of W " + ws.ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  auto geometry = ResolveWindowGeometry(attrs_, input, kernel);
  if (!geometry.ok()) return geometry.status().WithContext("X " + xs.ToString());
  const WindowGeometry g = std::move(geometry).value();
  const int64_t kernel_size = Product(kernel);
  const int64_t positions = Product(g.output);

  std::vector<int64_t> offset_dims = {n, offset_group_ * kernel_size * static_cast<int64_t>(rank)};
  std::vector<int64_t> mask_dims = {n, offset_group_ * kernel_size};
  offset_dims.insert(offset_dims.end(), g.output.begin(), g.output.end());
  mask_dims.insert(mask_dims.end(), g.output.begin(), g.output.end());
  if (offset->shape().dims() != offset_dims) {
    return InvalidArgument("offset must have shape " + Shape(offset_dims).ToString() +
                           " [N, offset_group * prod(kernel) * spatial rank, output...], got " +
                           offset->shape().ToString());
  }
  if (mask != nullptr && mask->shape().dims() != mask_dims) {
    return InvalidArgument("mask must have shape " + Shape(mask_dims).ToString() +
                           " [N, offset_group * prod(kernel), output...], got " +
                           mask->shape().ToString());
  }
  if (b != nullptr && (b->shape().rank() != 1 || b->shape()[0] != m)) {
    return InvalidArgument("B must have shape [" + std::to_string(m) + "], got " +
                           b->shape().ToString());
  }
  std::vector<int64_t> out_dims = {n, m};
  out_dims.insert(out_dims.end(), g.output.begin(), g.output.end());
  const Shape out_shape(out_dims);
  ONNXGATE_RETURN_IF_ERROR(NewTensor(x->dtype(), out_shape).status());

  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> wd, ToDoubles(*w));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> od, ToDoubles(*offset));
  std::vector<double> md, bd;
  if (mask != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(md, ToDoubles(*mask));
  }
  if (b != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(bd, ToDoubles(*b));
  }

  const int64_t plane = Product(input);
  const int64_t channels_per_offset_group = c / offset_group_;
  const int64_t cg = c / group_;
  const int64_t mg = m / group_;
  std::vector<double> y(static_cast<size_t>(n * m * positions), 0.0);
  RowMajorMatrix col(c * kernel_size, positions);
  std::vector<int64_t> k_idx(rank), p_idx(rank);
  std::vector<double> pos(rank);
  for (int64_t img = 0; img < n; ++img) {
    // col[ch * K + k, p]: channel ch read by tap k at output position p.
    for (int64_t og = 0; og < offset_group_; ++og) {
      std::fill(k_idx.begin(), k_idx.end(), 0);
      for (int64_t k = 0; k < kernel_size; ++k) {
        std::fill(p_idx.begin(), p_idx.end(), 0);
        for (int64_t p = 0; p < positions; ++p) {
          for (size_t i = 0; i < rank; ++i) {
            const int64_t channel =
                (og * kernel_size + k) * static_cast<int64_t>(rank) + static_cast<int64_t>(i);
            pos[i] = static_cast<double>(p_idx[i] * g.strides[i] - g.pad_begin[i] +
                                         k_idx[i] * g.dilations[i]) +
                     od[(img * offset_dims[1] + channel) * positions + p];
          }
          const double weight =
              md.empty() ? 1.0 : md[(img * mask_dims[1] + og * kernel_size + k) * positions + p];
          for (int64_t ch = og * channels_per_offset_group;
               ch < (og + 1) * channels_per_offset_group; ++ch) {
            col(ch * kernel_size + k, p) =
                weight * Interpolate(xd.data() + (img * c + ch) * plane, input, pos);
          }
          for (size_t i = rank; i-- > 0;) {
            if (++p_idx[i] < g.output[i]) break;
            p_idx[i] = 0;
          }
        }
        for (size_t i = rank; i-- > 0;) {
          if (++k_idx[i] < kernel[i]) break;
          k_idx[i] = 0;
        }
      }
    }
    for (int64_t grp = 0; grp < group_; ++grp) {
      Eigen::Map<const RowMajorMatrix> wg(wd.data() + grp * mg * cg * kernel_size, mg,
                                          cg * kernel_size);
      Eigen::Map<RowMajorMatrix> yg(y.data() + (img * m + grp * mg) * positions, mg, positions);
      yg.noalias() = wg * col.middleRows(grp * cg * kernel_size, cg * kernel_size);
      if (!bd.empty()) {
        for (int64_t oc = 0; oc < mg; ++oc) yg.row(oc).array() += bd[grp * mg + oc];
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, FromDoubles(x->dtype(), out_shape, y));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace onnxgate::ref
