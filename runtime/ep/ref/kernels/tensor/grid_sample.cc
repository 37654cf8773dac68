// GridSample: the coordinate handling (unnormalize, clip, reflect) and the three interpolations
// of PyTorch's grid sampler, one spatial axis at a time: each axis contributes taps (index,
// weight), and an output is the sum over every combination of taps of the product of weights
// times the input element there.
#include "runtime/ep/ref/kernels/tensor/grid_sample.h"

#include <algorithm>
#include <cmath>

#include "runtime/ep/ref/kernels/tensor/resize_plan.h"
#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// Grid coordinate in [-1, 1] to a pixel coordinate: -1 and 1 are the centres of the corner
// pixels with align_corners, their outer edges without.
double Unnormalize(double coord, int64_t size, bool align_corners) {
  const double s = static_cast<double>(size);
  return align_corners ? (coord + 1.0) / 2.0 * (s - 1.0) : ((coord + 1.0) * s - 1.0) / 2.0;
}

double Clip(double coord, int64_t size) {
  return std::min(static_cast<double>(size - 1), std::max(coord, 0.0));
}

// Reflects coord into [twice_low / 2, twice_high / 2], bouncing as often as needed.
double Reflect(double coord, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0.0;
  const double min = twice_low / 2.0;
  const double span = (twice_high - twice_low) / 2.0;
  coord = std::fabs(coord - min);
  const double extra = std::fmod(coord, span);
  const double flips = std::floor(coord / span);
  return std::fmod(flips, 2.0) == 0.0 ? extra + min : span - extra + min;
}

// Applies the padding mode to a pixel coordinate (zeros leaves it, reads outside give 0).
double Pad(double coord, int64_t size, const GridSampleOptions& o) {
  if (o.padding == GridPadding::kBorder) return Clip(coord, size);
  if (o.padding == GridPadding::kReflection) {
    const double s = static_cast<double>(size);
    coord = o.align_corners ? Reflect(coord, 0.0, 2.0 * (s - 1.0))
                            : Reflect(coord, -1.0, 2.0 * s - 1.0);
    return Clip(coord, size);
  }
  return coord;
}

// A pixel coordinate as an index into an axis of `size`; -1 (a read of 0) outside it, and for
// NaN and huge values, which a grid may hold and which have no integer conversion.
int64_t ToIndex(double v, int64_t size) {
  if (!(v > -1.0e15 && v < 1.0e15)) return -1;
  const int64_t i = static_cast<int64_t>(v);
  return i >= 0 && i < size ? i : -1;
}

struct Tap {
  int64_t index;  // -1: outside the input
  double weight;
};

// The taps of one spatial axis of `size` at normalised grid coordinate g.
void AxisTaps(double g, int64_t size, const GridSampleOptions& o, std::vector<Tap>* taps) {
  taps->clear();
  const double x = Unnormalize(g, size, o.align_corners);
  switch (o.mode) {
    case GridSampleMode::kNearest:
      // Ties round to even, as std::nearbyint does in PyTorch's sampler.
      taps->push_back({ToIndex(RoundHalfToEven(Pad(x, size, o)), size), 1.0});
      return;
    case GridSampleMode::kLinear: {
      const double p = Pad(x, size, o);
      const double x0 = std::floor(p);
      const double t = p - x0;
      taps->push_back({ToIndex(x0, size), 1.0 - t});
      taps->push_back({ToIndex(x0 + 1.0, size), t});
      return;
    }
    case GridSampleMode::kCubic: {
      // Cubic pads each of the 4 taps, not the sampling point; the padded tap is truncated
      // toward zero, as PyTorch's sampler does.
      const double x0 = std::floor(x);
      double w[4];
      CubicWeights(x - x0, -0.75, w);
      for (int i = 0; i < 4; ++i) {
        const double tap = x0 - 1.0 + i;
        taps->push_back({ToIndex(std::trunc(Pad(tap, size, o)), size), w[i]});
      }
      return;
    }
  }
}

}  // namespace

StatusOr<Tensor> GridSample(const Tensor& x, const Tensor& grid, const GridSampleOptions& options) {
  const Shape& xs = x.shape();
  const Shape& gs = grid.shape();
  const size_t rank = xs.rank();
  if (rank < 3 || gs.rank() != rank || gs[0] != xs[0] ||
      gs[rank - 1] != static_cast<int64_t>(rank - 2)) {
    return InvalidArgument(
        "X must be [N, C, D1, ..., Dr] (r >= 1) and grid [N, O1, ..., Or, r], got X " +
        xs.ToString() + " and grid " + gs.ToString());
  }
  const size_t r = rank - 2;
  const int64_t n = xs[0], c = xs[1];
  std::vector<int64_t> in_dims(xs.dims().begin() + 2, xs.dims().end());
  std::vector<int64_t> out_dims = {n, c};
  int64_t points = 1, plane = 1;  // output points and input elements per (n, c)
  for (size_t i = 0; i < r; ++i) {
    out_dims.push_back(gs[i + 1]);
    points *= gs[i + 1];
    plane *= in_dims[i];
  }
  const Shape out_shape(out_dims);
  ONNXGATE_RETURN_IF_ERROR(
      out_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double))));
  if (plane == 0 && points > 0 && n * c > 0) {
    return InvalidArgument("X " + xs.ToString() + " has no elements to sample");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> g, FloatsOf(grid, "grid"));
  std::vector<int64_t> strides(r, 1);
  for (size_t i = r; i-- > 1;) strides[i - 1] = strides[i] * in_dims[i];

  // For every output point of batch b: its taps as (offset within a plane or -1, weight).
  std::vector<std::vector<Tap>> axis_taps(r);
  auto point_taps = [&](int64_t b, int64_t p, std::vector<Tap>* combined) {
    for (size_t i = 0; i < r; ++i) {
      // grid[..., 0] is the last axis.
      const double coord = g[static_cast<size_t>((b * points + p) * static_cast<int64_t>(r) +
                                                 static_cast<int64_t>(r - 1 - i))];
      AxisTaps(coord, in_dims[i], options, &axis_taps[i]);
    }
    combined->assign(1, Tap{0, 1.0});
    for (size_t i = 0; i < r; ++i) {
      std::vector<Tap> next;
      for (const Tap& a : *combined) {
        for (const Tap& t : axis_taps[i]) {
          const bool outside = a.index < 0 || t.index < 0;
          next.push_back({outside ? -1 : a.index + t.index * strides[i], a.weight * t.weight});
        }
      }
      combined->swap(next);
    }
  };

  std::vector<Tap> taps;
  if (options.mode == GridSampleMode::kNearest) {
    // One tap per point: a gather, with padding zeros read from a zero of X's type.
    std::vector<int64_t> from(static_cast<size_t>(out_shape.NumElements()));
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < points; ++p) {
        point_taps(b, p, &taps);
        for (int64_t ch = 0; ch < c; ++ch) {
          from[static_cast<size_t>((b * c + ch) * points + p)] =
              taps[0].index < 0 ? -1 : (b * c + ch) * plane + taps[0].index;
        }
      }
    }
    ONNXGATE_ASSIGN_OR_RETURN(Tensor zero, NewTensor(x.dtype(), Shape(std::vector<int64_t>{})));
    return TakeElements(x, out_shape, from, &zero);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), out_shape));
  Status st = VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t p = 0; p < points; ++p) {
        point_taps(b, p, &taps);
        for (int64_t ch = 0; ch < c; ++ch) {
          const T* src = in + (b * c + ch) * plane;
          double sum = 0.0;
          for (const Tap& t : taps) {
            // A tap of weight 0 adds nothing, even next to an infinite element.
            if (t.index >= 0 && t.weight != 0.0) sum += t.weight * LoadAsDouble(src[t.index]);
          }
          out[(b * c + ch) * points + p] = StoreAs<T>(sum);
        }
      }
    }
    return OkStatus();
  });
  if (!st.ok()) {
    return InvalidArgument(std::string("linear and cubic sampling need a numeric X, got ") +
                           DataTypeShortName(x.dtype()));
  }
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> GridSampleKernel::Create(const KernelInfo& info) {
  GridSampleOptions o;
  // Opset 16 names the modes bilinear and bicubic, opset 20 linear and cubic.
  const bool v16 = info.since_version() < 20;
  const std::string linear = v16 ? "bilinear" : "linear";
  const std::string cubic = v16 ? "bicubic" : "cubic";
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", linear));
  if (mode == linear) {
    o.mode = GridSampleMode::kLinear;
  } else if (mode == "nearest") {
    o.mode = GridSampleMode::kNearest;
  } else if (mode == cubic) {
    o.mode = GridSampleMode::kCubic;
  } else {
    return InvalidArgument("mode must be " + linear + ", nearest or " + cubic + ", got '" + mode +
                           "'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string padding,
                            info.GetString("padding_mode", std::string("zeros")));
  if (padding == "zeros") {
    o.padding = GridPadding::kZeros;
  } else if (padding == "border") {
    o.padding = GridPadding::kBorder;
  } else if (padding == "reflection") {
    o.padding = GridPadding::kReflection;
  } else {
    return InvalidArgument("padding_mode must be zeros, border or reflection, got '" + padding +
                           "'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t align, info.GetInt("align_corners", 0));
  o.align_corners = align != 0;
  return std::unique_ptr<OpKernel>(new GridSampleKernel(o, v16));
}

Status GridSampleKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* grid, GetInput(ctx, 1, "grid"));
  if (only_4d_ && x->shape().rank() != 4) {
    return InvalidArgument("X must be 4-D [N, C, H, W] before opset 20, got " +
                           x->shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, GridSample(*x, *grid, options_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
