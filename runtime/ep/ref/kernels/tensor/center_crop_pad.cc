// CenterCropPad as one gather: each output axis maps its indices to input indices, or to -1
// (padding) outside the input.
#include "runtime/ep/ref/kernels/tensor/center_crop_pad.h"

#include <string>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> CenterCropPad(const Tensor& input, const std::vector<int64_t>& shape,
                               const std::vector<int64_t>& axes) {
  const Shape& s = input.shape();
  if (shape.size() != axes.size()) {
    return InvalidArgument("shape must hold one size per axis (" + std::to_string(axes.size()) +
                           "), got " + ListToString(shape));
  }
  std::vector<int64_t> out_dims = s.dims();
  for (size_t i = 0; i < axes.size(); ++i) {
    if (shape[i] < 0) {
      return InvalidArgument("shape must not be negative, got " + ListToString(shape));
    }
    out_dims[static_cast<size_t>(axes[i])] = shape[i];
  }
  const Shape out_shape(out_dims);
  ONNXGATE_RETURN_IF_ERROR(
      out_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(int64_t))));
  std::vector<std::vector<int64_t>> maps(s.rank());
  for (size_t d = 0; d < s.rank(); ++d) {
    const int64_t in = s[d], out = out_dims[d];
    // Crop: output o reads in index o + start. Pad: input i lands at output i + start.
    const int64_t shift = in >= out ? (in - out) / 2 : -((out - in) / 2);
    for (int64_t o = 0; o < out; ++o) {
      const int64_t from = o + shift;
      maps[d].push_back(from >= 0 && from < in ? from : -1);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor zero, NewTensor(input.dtype(), Shape(std::vector<int64_t>{})));
  return TakeElements(input, out_shape, FlatIndexFromAxisMaps(s, maps), &zero);
}

StatusOr<std::unique_ptr<OpKernel>> CenterCropPadKernel::Create(const KernelInfo& info) {
  std::vector<int64_t> axes;
  if (info.has_attribute("axes")) {
    ONNXGATE_ASSIGN_OR_RETURN(axes, info.GetInts("axes"));
    if (axes.empty()) return InvalidArgument("'axes' must not be empty");
  }
  return std::unique_ptr<OpKernel>(new CenterCropPadKernel(std::move(axes)));
}

Status CenterCropPadKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input_data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* shape_input, GetInput(ctx, 1, "shape"));
  if (shape_input->dtype() != DataType::kInt32 && shape_input->dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("'shape' must be int32 or int64, got ") +
                           DataTypeShortName(shape_input->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ToInt64List(*shape_input, "shape"));
  const int64_t rank = static_cast<int64_t>(input->shape().rank());
  std::vector<int64_t> axes;
  if (axes_.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  } else {
    // Repeated axes are undefined in the spec; they are rejected.
    ONNXGATE_ASSIGN_OR_RETURN(axes, NormalizeAxesOf(axes_, rank, /*allow_negative=*/true, "axes"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, CenterCropPad(*input, shape, axes));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
