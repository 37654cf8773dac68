// Pooling: one sliding-window template in double, specialised by a PoolKind.
#include "runtime/ep/ref/kernels/nn/pool.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"
#include "runtime/provider/common/pool_attributes.h"

namespace onnxgate::ref {

namespace {

// For every output position, how many window positions lie inside the padded input (padding
// counted, positions past the explicit padding that ceil_mode adds not counted). AveragePool
// divides by this when count_include_pad is set.
std::vector<double> PaddedWindowSizes(const WindowGeometry& g) {
  const size_t rank = g.rank();
  std::vector<double> sizes(static_cast<size_t>(Product(g.output)));
  std::vector<int64_t> o(rank, 0);
  for (double& size : sizes) {
    size = 1.0;
    for (size_t i = 0; i < rank; ++i) {
      int64_t n = 0;
      for (int64_t j = 0; j < g.kernel[i]; ++j) {
        int64_t coord = o[i] * g.strides[i] - g.pad_begin[i] + j * g.dilations[i];
        if (coord >= -g.pad_begin[i] && coord < g.input[i] + g.pad_end[i]) ++n;
      }
      size *= static_cast<double>(n);
    }
    for (size_t i = rank; i-- > 0;) {
      if (++o[i] < g.output[i]) break;
      o[i] = 0;
    }
  }
  return sizes;
}

// The index within the plane in column-major order (first spatial axis fastest) of the element
// at row-major index `row_major`; MaxPool reports it with storage_order = 1.
int64_t ColumnMajorIndex(int64_t row_major, const std::vector<int64_t>& dims) {
  int64_t col_major = 0;
  int64_t col_stride = 1;
  std::vector<int64_t> coords(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    coords[i] = row_major % dims[i];
    row_major /= dims[i];
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    col_major += coords[i] * col_stride;
    col_stride *= dims[i];
  }
  return col_major;
}

struct PoolOutput {
  std::vector<double> y;
  std::vector<int64_t> indices;  // MaxPool only: flat row-major index of the max in its plane
};

// Pools `planes` consecutive input planes of `x`. Max propagates NaN and, on ties, keeps the
// first position in window order. Padding never takes part in a max, sum or Lp norm.
StatusOr<PoolOutput> PoolDouble(const std::vector<double>& x, int64_t planes,
                                const WindowGeometry& g, const PoolOptions& o) {
  const int64_t plane = Product(g.input);
  const int64_t kernel_size = Product(g.kernel);
  const int64_t positions = Product(g.output);
  const std::vector<int64_t> table = WindowIndexTable(g);
  std::vector<double> padded_sizes;
  if (o.kind == PoolKind::kAverage && o.count_include_pad) padded_sizes = PaddedWindowSizes(g);
  PoolOutput out;
  out.y.resize(static_cast<size_t>(planes * positions));
  if (o.kind == PoolKind::kMax) out.indices.resize(out.y.size());
  auto empty_window = [&](int64_t p) {
    return InvalidArgument("the window of output position " + std::to_string(p) +
                           " (flat, per plane) covers only padding, where this pooling is "
                           "undefined");
  };
  for (int64_t pl = 0; pl < planes; ++pl) {
    const double* src = x.data() + pl * plane;
    for (int64_t p = 0; p < positions; ++p) {
      double acc = 0.0;
      int64_t count = 0;
      int64_t best = -1;
      for (int64_t k = 0; k < kernel_size; ++k) {
        const int64_t idx = table[k * positions + p];
        if (idx < 0) continue;
        const double v = src[idx];
        ++count;
        switch (o.kind) {
          case PoolKind::kMax:
            if (best < 0 || v > acc || (std::isnan(v) && !std::isnan(acc))) {
              acc = v;
              best = idx;
            }
            break;
          case PoolKind::kAverage: acc += v; break;
          case PoolKind::kLp: acc += std::pow(std::fabs(v), o.p); break;
        }
      }
      const int64_t at = pl * positions + p;
      switch (o.kind) {
        case PoolKind::kMax:
          if (count == 0) return empty_window(p);
          out.y[at] = acc;
          out.indices[at] = best;
          break;
        case PoolKind::kAverage:
          if (o.count_include_pad) {
            out.y[at] = acc / padded_sizes[p];
          } else {
            if (count == 0) return empty_window(p);
            out.y[at] = acc / static_cast<double>(count);
          }
          break;
        case PoolKind::kLp: out.y[at] = o.p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / o.p); break;
      }
    }
  }
  return out;
}

// LpPool-1 and GlobalLpPool-1 take p as a float, which must be positive and finite; later
// versions take an integer >= 1.
StatusOr<double> ParseP(const KernelInfo& info) {
  if (info.since_version() < 2) {
    ONNXGATE_ASSIGN_OR_RETURN(float p, info.GetFloat("p", 2.0f));
    if (!(p > 0 && std::isfinite(p))) {
      return InvalidArgument("'p' must be a positive finite float, got " + std::to_string(p));
    }
    return p;
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t p, info.GetInt("p", 2));
  if (p < 1) {
    return InvalidArgument("'p' must be >= 1, got " + std::to_string(p));
  }
  return static_cast<double>(p);
}

std::unique_ptr<OpKernel> MakePool(const char* op, ConvPoolAttributes attrs, PoolOptions o) {
  return std::unique_ptr<OpKernel>(new Pool(op, std::move(attrs), o));
}

}  // namespace

Status Pool::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  const Shape& xs = x->shape();
  if (xs.rank() < 3) {
    return InvalidArgument(std::string(op_) + ": X must have rank >= 3 (N, C, spatial...), got " +
                           xs.ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  WindowGeometry g;
  if (options_.global) {
    g = GlobalWindowGeometry(input);
  } else {
    auto resolved = ResolveWindowGeometry(attrs_, input, attrs_.kernel_shape);
    if (!resolved.ok())
      return resolved.status().WithContext(std::string(op_) + " with X " + xs.ToString());
    g = std::move(resolved).value();
  }
  std::vector<int64_t> out_dims = {xs[0], xs[1]};
  out_dims.insert(out_dims.end(), g.output.begin(), g.output.end());
  Shape out_shape(std::move(out_dims));
  ONNXGATE_RETURN_IF_ERROR(out_shape.Validate());

  const int64_t planes = xs[0] * xs[1];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  auto pooled = PoolDouble(xd, planes, g, options_);
  if (!pooled.ok())
    return pooled.status().WithContext(std::string(op_) + " with X " + xs.ToString());
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, FromDoubles(x->dtype(), out_shape, pooled->y));
  ctx.set_output(0, std::move(y));

  if (options_.kind == PoolKind::kMax && ctx.num_outputs() > 1) {
    // Indices count over the whole tensor: the plane's offset plus the index inside the plane.
    Tensor indices(DataType::kInt64, out_shape);
    int64_t* out = indices.mutable_data<int64_t>();
    const int64_t plane = Product(g.input);
    const int64_t positions = Product(g.output);
    for (int64_t i = 0; i < static_cast<int64_t>(pooled->indices.size()); ++i) {
      int64_t in_plane = pooled->indices[i];
      if (options_.column_major_indices) in_plane = ColumnMajorIndex(in_plane, g.input);
      out[i] = (i / positions) * plane + in_plane;
    }
    ctx.set_output(1, std::move(indices));
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> MaxPool::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(WindowPoolAttributes p, ParseMaxPoolAttributes(info));
  return MakePool("MaxPool", std::move(p.attrs), p.options);
}

StatusOr<std::unique_ptr<OpKernel>> AveragePool::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(WindowPoolAttributes p, ParseAveragePoolAttributes(info));
  return MakePool("AveragePool", std::move(p.attrs), p.options);
}

StatusOr<std::unique_ptr<OpKernel>> LpPool::Create(const KernelInfo& info) {
  // LpPool-18 adds ceil_mode and dilations.
  const bool v18 = info.since_version() >= 18;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParsePoolAttributes(info, v18, v18));
  PoolOptions o;
  o.kind = PoolKind::kLp;
  ONNXGATE_ASSIGN_OR_RETURN(o.p, ParseP(info));
  return MakePool("LpPool", std::move(attrs), o);
}

StatusOr<std::unique_ptr<OpKernel>> GlobalMaxPool::Create(const KernelInfo& info) {
  PoolOptions o;
  o.kind = PoolKind::kMax;
  o.global = true;
  return MakePool("GlobalMaxPool", {}, o);
}

StatusOr<std::unique_ptr<OpKernel>> GlobalAveragePool::Create(const KernelInfo& info) {
  PoolOptions o;
  o.kind = PoolKind::kAverage;
  o.global = true;
  return MakePool("GlobalAveragePool", {}, o);
}

StatusOr<std::unique_ptr<OpKernel>> GlobalLpPool::Create(const KernelInfo& info) {
  PoolOptions o;
  o.kind = PoolKind::kLp;
  o.global = true;
  ONNXGATE_ASSIGN_OR_RETURN(o.p, ParseP(info));
  return MakePool("GlobalLpPool", {}, o);
}

}  // namespace onnxgate::ref
