// Resize and Upsample: per-axis sampling plans (resize_plan.h) applied as one gather for nearest
// and as separable passes, innermost axis first, for linear and cubic. That order and the double
// arithmetic follow the ONNX reference implementation, which interpolates the inner axes first.
#include "runtime/ep/ref/kernels/tensor/resize.h"

#include <cmath>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// Whether resampling leaves this axis as it is (every output reads its own index, weight 1).
bool IsIdentity(const std::vector<AxisSample>& samples, int64_t in) {
  if (static_cast<int64_t>(samples.size()) != in) return false;
  for (size_t o = 0; o < samples.size(); ++o) {
    const AxisSample& s = samples[o];
    if (s.outside) return false;
    for (size_t t = 0; t < s.index.size(); ++t) {
      const bool own = s.index[t] == static_cast<int64_t>(o);
      if ((own && s.weight[t] != 1.0) || (!own && s.weight[t] != 0.0)) return false;
    }
  }
  return true;
}

// One separable pass: resamples axis `d` of `buf` (shape `dims`) and updates `dims`. Taps of
// weight exactly 0 are skipped, so an output on an input grid point is that input value even
// when a neighbour is infinite.
std::vector<double> ResamplePass(const std::vector<double>& buf, std::vector<int64_t>& dims,
                                 size_t d, const std::vector<AxisSample>& samples,
                                 double extrapolation_value) {
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < d; ++i) outer *= dims[i];
  for (size_t i = d + 1; i < dims.size(); ++i) inner *= dims[i];
  const int64_t in = dims[d];
  const int64_t out = static_cast<int64_t>(samples.size());
  std::vector<double> next(static_cast<size_t>(outer * out * inner), 0.0);
  for (int64_t oo = 0; oo < outer; ++oo) {
    for (int64_t o = 0; o < out; ++o) {
      const AxisSample& s = samples[static_cast<size_t>(o)];
      double* dst = next.data() + (oo * out + o) * inner;
      if (s.outside) {
        std::fill(dst, dst + inner, extrapolation_value);
        continue;
      }
      for (size_t t = 0; t < s.index.size(); ++t) {
        if (s.weight[t] == 0.0) continue;
        const double* src = buf.data() + (oo * in + s.index[t]) * inner;
        for (int64_t e = 0; e < inner; ++e) dst[e] += s.weight[t] * src[e];
      }
    }
  }
  dims[d] = out;
  return next;
}

StatusOr<Tensor> ResampleNearest(const Tensor& x, const std::vector<std::vector<AxisSample>>& plans,
                                 const Shape& out_shape, double extrapolation_value) {
  std::vector<std::vector<int64_t>> maps(plans.size());
  bool any_outside = false;
  for (size_t d = 0; d < plans.size(); ++d) {
    for (const AxisSample& s : plans[d]) {
      maps[d].push_back(s.outside ? -1 : s.index[0]);
      any_outside |= s.outside;
    }
  }
  Tensor fill;
  if (any_outside) {
    Status st = VisitArithmeticTypes(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      fill = Tensor::Scalar<T>(StoreAs<T>(extrapolation_value));
      return OkStatus();
    });
    if (!st.ok()) {
      return InvalidArgument(
          std::string("tf_crop_and_resize extrapolates with a number, which a ") +
          DataTypeShortName(x.dtype()) + " tensor cannot hold");
    }
  }
  return TakeElements(x, out_shape, FlatIndexFromAxisMaps(x.shape(), maps),
                      any_outside ? &fill : nullptr);
}

}  // namespace

StatusOr<Tensor> Resample(const Tensor& x, const std::vector<AxisResample>& axes,
                          const ResizeOptions& options, double extrapolation_value) {
  const Shape& xs = x.shape();
  ONNXGATE_CHECK(axes.size() == xs.rank());
  std::vector<int64_t> out_dims;
  std::vector<std::vector<AxisSample>> plans;
  for (size_t d = 0; d < axes.size(); ++d) {
    if (axes[d].in == 0 && axes[d].out > 0) {
      return InvalidArgument("axis " + std::to_string(d) + " of X " + xs.ToString() +
                             " is empty and cannot be resized to " + std::to_string(axes[d].out));
    }
    out_dims.push_back(axes[d].out);
    plans.push_back(PlanAxis(axes[d], options));
  }
  Shape out_shape(out_dims);
  ONNXGATE_RETURN_IF_ERROR(
      out_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(double))));
  if (options.mode == ResizeMode::kNearest) {
    return ResampleNearest(x, plans, out_shape, extrapolation_value);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), out_shape));
  Status st = VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    std::vector<double> buf(static_cast<size_t>(x.NumElements()));
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = LoadAsDouble(in[i]);
    std::vector<int64_t> dims = xs.dims();
    for (size_t d = dims.size(); d-- > 0;) {
      if (IsIdentity(plans[d], dims[d])) continue;
      buf = ResamplePass(buf, dims, d, plans[d], extrapolation_value);
    }
    T* out = y.mutable_data<T>();
    for (size_t i = 0; i < buf.size(); ++i) out[i] = StoreAs<T>(buf[i]);
    return OkStatus();
  });
  if (!st.ok()) {
    return InvalidArgument(std::string("linear and cubic resizing need a numeric tensor, got ") +
                           DataTypeShortName(x.dtype()));
  }
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> ResizeKernel::Create(const KernelInfo& info) {
  const bool upsample = info.op_type() == "Upsample";
  const int version = info.since_version();
  Form form = Form::kFull;
  if (upsample) form = version < 9 ? Form::kUpsample7 : Form::kScalesOnly;
  if (!upsample && version < 11) form = Form::kScalesOnly;

  ResizeOptions options;
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", std::string("nearest")));
  auto parsed_mode = ParseResizeMode(mode);
  if (!parsed_mode.ok()) return parsed_mode.status();
  options.mode = *parsed_mode;
  double extrapolation = 0.0;
  std::vector<float> scales;
  if (form != Form::kFull) {
    // Before Resize-11 there is only nearest and linear, on asymmetric coordinates.
    if (options.mode == ResizeMode::kCubic) {
      return InvalidArgument("mode 'cubic' exists from Resize-11");
    }
    options.transform = CoordinateTransform::kAsymmetric;
    options.nearest = NearestMode::kLegacy;
    if (form == Form::kUpsample7) {
      if (!info.has_attribute("scales")) {
        return InvalidArgument("the 'scales' attribute is required");
      }
      ONNXGATE_ASSIGN_OR_RETURN(scales, info.GetFloats("scales"));
    }
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::string transform,
        info.GetString("coordinate_transformation_mode", std::string("half_pixel")));
    auto parsed_transform = ParseCoordinateTransform(transform);
    if (!parsed_transform.ok()) return parsed_transform.status();
    options.transform = *parsed_transform;
    if (options.transform == CoordinateTransform::kTfHalfPixelForNn && version >= 13) {
      return InvalidArgument(
          "coordinate_transformation_mode 'tf_half_pixel_for_nn' exists only "
          "in Resize-11");
    }
    if (options.transform == CoordinateTransform::kHalfPixelSymmetric && version < 19) {
      return InvalidArgument(
          "coordinate_transformation_mode 'half_pixel_symmetric' exists from "
          "Resize-19");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string nearest,
                              info.GetString("nearest_mode", std::string("round_prefer_floor")));
    auto parsed_nearest = ParseNearestMode(nearest);
    if (!parsed_nearest.ok()) return parsed_nearest.status();
    options.nearest = *parsed_nearest;
    ONNXGATE_ASSIGN_OR_RETURN(float a, info.GetFloat("cubic_coeff_a", -0.75f));
    options.cubic_coeff_a = a;
    ONNXGATE_ASSIGN_OR_RETURN(int64_t exclude, info.GetInt("exclude_outside", 0));
    options.exclude_outside = exclude != 0;
    ONNXGATE_ASSIGN_OR_RETURN(float extrapolation_value,
                              info.GetFloat("extrapolation_value", 0.0f));
    extrapolation = extrapolation_value;
  }
  std::vector<int64_t> axes;
  AspectPolicy policy = AspectPolicy::kStretch;
  if (upsample || version < 18) {
    for (const char* name : {"antialias", "axes", "keep_aspect_ratio_policy"}) {
      if (info.has_attribute(name)) {
        return InvalidArgument(std::string("'") + name + "' exists from Resize-18");
      }
    }
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t antialias, info.GetInt("antialias", 0));
    if (antialias != 0 && antialias != 1) {
      return InvalidArgument("antialias must be 0 or 1, got " + std::to_string(antialias));
    }
    // The filter exists for linear and cubic; nearest reads one input and ignores it.
    options.antialias = antialias == 1 && options.mode != ResizeMode::kNearest;
    if (info.has_attribute("axes")) {
      ONNXGATE_ASSIGN_OR_RETURN(axes, info.GetInts("axes"));
      if (axes.empty()) return InvalidArgument("'axes' must not be empty");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string keep,
                              info.GetString("keep_aspect_ratio_policy", std::string("stretch")));
    if (keep == "not_larger") {
      policy = AspectPolicy::kNotLarger;
    } else if (keep == "not_smaller") {
      policy = AspectPolicy::kNotSmaller;
    } else if (keep != "stretch") {
      return InvalidArgument(
          "keep_aspect_ratio_policy must be stretch, not_larger or "
          "not_smaller, got '" +
          keep + "'");
    }
  }
  return std::unique_ptr<OpKernel>(new ResizeKernel(form, upsample, options, extrapolation,
                                                    std::move(scales), std::move(axes), policy));
}

StatusOr<std::vector<AxisResample>> ResizeKernel::Geometry(const KernelContext& ctx,
                                                           const Shape& x) const {
  const size_t rank = x.rank();
  // The axes that scales, sizes and roi list, in their order (Resize-18's axes, else all).
  std::vector<int64_t> axes;
  if (axes_.empty()) {
    for (size_t d = 0; d < rank; ++d) axes.push_back(static_cast<int64_t>(d));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(axes, NormalizeAxesOf(axes_, static_cast<int64_t>(rank),
                                                    /*allow_negative=*/true, "axes"));
  }
  const size_t count = axes.size();
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  std::vector<double> roi;
  if (form_ == Form::kUpsample7) {
    scales.assign(scales_.begin(), scales_.end());
  } else {
    const size_t scales_index = form_ == Form::kFull ? 2 : 1;
    const Tensor* s = ctx.input_tensor(scales_index);
    if (s != nullptr && s->NumElements() > 0) {
      ONNXGATE_ASSIGN_OR_RETURN(scales, FloatsOf(*s, "scales"));
    }
    const Tensor* z = form_ == Form::kFull ? ctx.input_tensor(3) : nullptr;
    if (z != nullptr && z->NumElements() > 0) {
      if (z->dtype() != DataType::kInt64) {
        return InvalidArgument(std::string("'sizes' must be int64, got ") +
                               DataTypeShortName(z->dtype()));
      }
      ONNXGATE_ASSIGN_OR_RETURN(sizes, ToInt64List(*z, "sizes"));
    }
    const Tensor* r = form_ == Form::kFull ? ctx.input_tensor(1) : nullptr;
    if (options_.transform == CoordinateTransform::kTfCropAndResize) {
      if (r == nullptr || r->NumElements() == 0) {
        return InvalidArgument("tf_crop_and_resize needs the 'roi' input");
      }
      ONNXGATE_ASSIGN_OR_RETURN(roi, FloatsOf(*r, "roi"));
      if (roi.size() != 2 * count) {
        return InvalidArgument("roi must hold 2 * " + std::to_string(count) + " values (" +
                               (axes_.empty() ? "the rank of X " + x.ToString() : "two per axis") +
                               "), got " + std::to_string(roi.size()));
      }
    }
  }
  if (scales.empty() == sizes.empty()) {
    return InvalidArgument(scales.empty() ? "one of 'scales' and 'sizes' must be given"
                                          : "'scales' and 'sizes' cannot both be given");
  }
  if ((!scales.empty() && scales.size() != count) || (!sizes.empty() && sizes.size() != count)) {
    const std::string per = axes_.empty() ? "axis of X " + x.ToString() : "axis in axes";
    return InvalidArgument("scales or sizes must have one entry per " + per + ", got " +
                           std::to_string(scales.size() + sizes.size()));
  }
  for (int64_t size : sizes) {
    if (size < 0) return InvalidArgument("sizes must be >= 0, got " + ListToString(sizes));
  }
  // keep_aspect_ratio_policy: one scale for every listed axis, the smallest (not_larger) or
  // largest (not_smaller) of sizes / input.
  double uniform = 0.0;
  const bool keep_aspect = !sizes.empty() && policy_ != AspectPolicy::kStretch;
  if (keep_aspect) {
    for (size_t i = 0; i < count; ++i) {
      const int64_t in = x[static_cast<size_t>(axes[i])];
      if (in == 0) {
        return InvalidArgument("keep_aspect_ratio_policy cannot scale the empty axis " +
                               std::to_string(axes[i]) + " of X " + x.ToString());
      }
      const double ratio = static_cast<double>(sizes[i]) / static_cast<double>(in);
      if (i == 0 || (policy_ == AspectPolicy::kNotLarger ? ratio < uniform : ratio > uniform)) {
        uniform = ratio;
      }
    }
  }
  // Axes not listed keep their size.
  std::vector<AxisResample> result(rank);
  for (size_t d = 0; d < rank; ++d) {
    result[d].in = result[d].out = x[d];
    result[d].length_resized = static_cast<double>(x[d]);
  }
  for (size_t i = 0; i < count; ++i) {
    AxisResample& a = result[static_cast<size_t>(axes[i])];
    if (!roi.empty()) {
      a.roi_start = roi[i];
      a.roi_end = roi[i + count];
    }
    // Only tf_crop_and_resize resizes a crop of the axis; otherwise the roi is ignored.
    const double crop = roi.empty() ? 1.0 : a.roi_end - a.roi_start;
    if (keep_aspect) {
      a.scale = uniform;
      a.length_resized = uniform * static_cast<double>(a.in);
      if (!(a.length_resized < 9.0e18)) return InvalidArgument("sizes give an output too large");
      // round_int of the spec: to nearest, halves up.
      a.out = static_cast<int64_t>(std::floor(a.length_resized + 0.5));
    } else if (!sizes.empty()) {
      a.out = sizes[i];
      a.scale = a.in == 0 ? 1.0 : static_cast<double>(a.out) / static_cast<double>(a.in);
      a.length_resized = static_cast<double>(a.out);
    } else {
      const double s = scales[i];
      if (!(s > 0.0) || !std::isfinite(s) || (upsample_ && s < 1.0)) {
        return InvalidArgument("scale " + std::to_string(s) + " of axis " +
                               std::to_string(axes[i]) +
                               (upsample_ ? " must be >= 1" : " must be > 0"));
      }
      a.scale = s;
      a.length_resized = static_cast<double>(a.in) * crop * s;
      if (!(a.length_resized < 9.0e18)) return InvalidArgument("scales give an output too large");
      a.out = static_cast<int64_t>(std::floor(a.length_resized));
    }
  }
  return result;
}

Status ResizeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<AxisResample> axes, Geometry(ctx, x->shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Resample(*x, axes, options_, extrapolation_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
