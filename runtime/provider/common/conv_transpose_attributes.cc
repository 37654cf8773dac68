// ConvTranspose's attributes and the shapes and geometry they give, for every provider.
#include "runtime/provider/common/conv_transpose_attributes.h"

#include <string>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate {

StatusOr<WindowGeometry> ResolveTransposedGeometry(const ConvPoolAttributes& attrs,
                                                   const std::vector<int64_t>& output_padding,
                                                   const std::vector<int64_t>& output_shape,
                                                   const std::vector<int64_t>& x_spatial,
                                                   const std::vector<int64_t>& kernel) {
  const size_t rank = x_spatial.size();
  auto check = [&](const char* what, const std::vector<int64_t>& v, size_t expected) -> Status {
    if (!v.empty() && v.size() != expected) {
      return InvalidArgument(std::string("'") + what + "' has " + std::to_string(v.size()) +
                             " values, expected " + std::to_string(expected) + " for " +
                             std::to_string(rank) + " spatial axes");
    }
    return OkStatus();
  };
  ONNXGATE_RETURN_IF_ERROR(check("kernel", kernel, rank));
  ONNXGATE_RETURN_IF_ERROR(check("kernel_shape", attrs.kernel_shape, rank));
  ONNXGATE_RETURN_IF_ERROR(check("strides", attrs.strides, rank));
  ONNXGATE_RETURN_IF_ERROR(check("dilations", attrs.dilations, rank));
  ONNXGATE_RETURN_IF_ERROR(check("pads", attrs.pads, 2 * rank));
  ONNXGATE_RETURN_IF_ERROR(check("output_padding", output_padding, rank));
  std::vector<int64_t> target;  // requested spatial output dims
  if (!output_shape.empty()) {
    if (output_shape.size() == rank + 2) {
      target.assign(output_shape.begin() + 2, output_shape.end());
    } else {
      ONNXGATE_RETURN_IF_ERROR(check("output_shape", output_shape, rank));
      target = output_shape;
    }
  }
  WindowGeometry g;
  g.output = x_spatial;
  g.kernel = kernel;
  g.strides = attrs.strides.empty() ? std::vector<int64_t>(rank, 1) : attrs.strides;
  g.dilations = attrs.dilations.empty() ? std::vector<int64_t>(rank, 1) : attrs.dilations;
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.input.assign(rank, 0);
  const bool same = attrs.auto_pad == AutoPad::kSameUpper || attrs.auto_pad == AutoPad::kSameLower;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t adj = output_padding.empty() ? 0 : output_padding[i];
    // The extent the kernel reaches without any padding.
    const int64_t full =
        g.strides[i] * (x_spatial[i] - 1) + adj + (kernel[i] - 1) * g.dilations[i] + 1;
    if (!target.empty() || same) {
      const int64_t out = !target.empty() ? target[i] : x_spatial[i] * g.strides[i];
      const int64_t total = full - out;
      // As the spec writes it: SAME_UPPER puts the odd pad at the end, anything else at the start.
      const int64_t smaller = total >= 0 ? total / 2 : -((-total + 1) / 2);
      g.pad_begin[i] = attrs.auto_pad == AutoPad::kSameUpper ? smaller : total - smaller;
      g.pad_end[i] = total - g.pad_begin[i];
      g.input[i] = out;
    } else {
      if (attrs.auto_pad == AutoPad::kNotSet && !attrs.pads.empty()) {
        g.pad_begin[i] = attrs.pads[i];
        g.pad_end[i] = attrs.pads[rank + i];
      }
      g.input[i] = full - g.pad_begin[i] - g.pad_end[i];
    }
    if (g.input[i] < 0) {
      return InvalidArgument("on spatial axis " + std::to_string(i) + " the output size would be " +
                             std::to_string(g.input[i]));
    }
  }
  return g;
}

StatusOr<ConvTransposeAttributes> ParseConvTransposeAttributes(const KernelInfo& info) {
  ConvTransposeAttributes attrs;
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(attrs.conv, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(attrs.group, info.GetInt("group", 1));
  if (attrs.group < 1) {
    return InvalidArgument("'group' must be >= 1, got " + std::to_string(attrs.group));
  }
  ONNXGATE_ASSIGN_OR_RETURN(attrs.output_padding,
                            info.GetInts("output_padding", std::vector<int64_t>{}));
  ONNXGATE_ASSIGN_OR_RETURN(attrs.output_shape,
                            info.GetInts("output_shape", std::vector<int64_t>{}));
  for (int64_t v : attrs.output_padding) {
    if (v < 0) {
      return InvalidArgument("'output_padding' must be >= 0, got " +
                             DimsToString(attrs.output_padding));
    }
  }
  for (int64_t v : attrs.output_shape) {
    if (v < 0) {
      return InvalidArgument("'output_shape' must be >= 0, got " +
                             DimsToString(attrs.output_shape));
    }
  }
  return attrs;
}

StatusOr<ConvTransposeShapes> ResolveConvTransposeShapes(const ConvTransposeAttributes& attrs,
                                                         const Shape& xs, const Shape& ws,
                                                         const Shape* bs) {
  if (xs.rank() < 3 || ws.rank() != xs.rank()) {
    return InvalidArgument("ConvTranspose: X must have rank >= 3 and W the same rank, got X " +
                           xs.ToString() + " and W " + ws.ToString());
  }
  ConvTransposeShapes out;
  out.n = xs[0];
  out.c = xs[1];
  out.m = ws[1] * attrs.group;
  if (ws[0] != out.c || out.c % attrs.group != 0) {
    return InvalidArgument("ConvTranspose: with group = " + std::to_string(attrs.group) + ", W " +
                           ws.ToString() + " must have W[0] = C of X " + xs.ToString() +
                           ", divisible by group");
  }
  std::vector<int64_t> kernel(ws.dims().begin() + 2, ws.dims().end());
  for (int64_t k : kernel) {
    if (k < 1)
      return InvalidArgument("ConvTranspose: W " + ws.ToString() + " has an empty spatial dim");
  }
  if (!attrs.conv.kernel_shape.empty() && attrs.conv.kernel_shape != kernel) {
    return InvalidArgument("ConvTranspose: kernel_shape " + DimsToString(attrs.conv.kernel_shape) +
                           " does not match the spatial dims of W " + ws.ToString());
  }
  if (bs != nullptr && (bs->rank() != 1 || (*bs)[0] != out.m)) {
    return InvalidArgument("ConvTranspose: B must have shape [" + std::to_string(out.m) +
                           "], got " + bs->ToString());
  }
  std::vector<int64_t> x_spatial(xs.dims().begin() + 2, xs.dims().end());
  auto geometry = ResolveTransposedGeometry(attrs.conv, attrs.output_padding, attrs.output_shape,
                                            x_spatial, kernel);
  if (!geometry.ok()) return geometry.status().WithContext("ConvTranspose with X " + xs.ToString());
  out.g = std::move(geometry).value();
  std::vector<int64_t> y_dims = {out.n, out.m};
  y_dims.insert(y_dims.end(), out.g.input.begin(), out.g.input.end());
  out.y = Shape(std::move(y_dims));
  ONNXGATE_RETURN_IF_ERROR(out.y.Validate());
  return out;
}

}  // namespace onnxgate
