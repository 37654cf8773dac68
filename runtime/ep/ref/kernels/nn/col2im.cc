// Col2Im over any number of spatial axes, through the window index table of im2col.
//
// Overlapping blocks are summed. Col2Im-18 allows every tensor type, so "sum" is read per type:
// floating-point values are summed in double and rounded once, integers wrap, bool values
// combine with OR (as numpy's addition of bool arrays does), complex values add, and strings
// concatenate in the order of the input's block offsets and block positions.
#include "runtime/ep/ref/kernels/nn/col2im.h"

#include <complex>
#include <string>
#include <type_traits>

#include "runtime/ep/ref/kernels/nn/im2col.h"
#include "runtime/provider/common/compute_type.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

// Largest image plane (product of image_shape) accepted, so the index arithmetic cannot
// overflow before the output allocation is checked.
constexpr int64_t kMaxPlane = int64_t{1} << 40;

// Adds every one of `planes` [K, P] column blocks of `col` onto its [plane] image of `image`.
template <typename T, typename AddFn>
void ScatterAdd(const T* col, int64_t planes, int64_t plane, int64_t kernel_size, int64_t positions,
                const std::vector<int64_t>& table, T* image, AddFn add) {
  for (int64_t pl = 0; pl < planes; ++pl) {
    const T* src = col + pl * kernel_size * positions;
    T* dst = image + pl * plane;
    for (int64_t i = 0; i < kernel_size * positions; ++i) {
      if (table[i] >= 0) add(dst[table[i]], src[i]);
    }
  }
}

StatusOr<std::vector<int64_t>> ShapeInput(const KernelContext& ctx, size_t index,
                                          const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  if (t->dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("'") + name + "' must be int64, got " +
                           DataTypeShortName(t->dtype()));
  }
  return ToInt64List(*t, name);
}

Status RequireAtLeast(const char* what, const std::vector<int64_t>& values, int64_t min) {
  for (int64_t v : values) {
    if (v < min) {
      return InvalidArgument(std::string("every value of '") + what + "' must be >= " +
                             std::to_string(min) + ", got " + DimsToString(values));
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> Col2Im::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> dilations,
                            info.GetInts("dilations", std::vector<int64_t>{}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> pads,
                            info.GetInts("pads", std::vector<int64_t>{}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                            info.GetInts("strides", std::vector<int64_t>{}));
  Status st = RequireAtLeast("dilations", dilations, 1);
  if (st.ok()) st = RequireAtLeast("pads", pads, 0);
  if (st.ok()) st = RequireAtLeast("strides", strides, 1);
  if (!st.ok()) return st;
  return std::unique_ptr<OpKernel>(
      new Col2Im(std::move(dilations), std::move(pads), std::move(strides)));
}

Status Col2Im::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> image, ShapeInput(ctx, 1, "image_shape"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> block, ShapeInput(ctx, 2, "block_shape"));
  const Shape& xs = input->shape();
  if (xs.rank() != 3) {
    return InvalidArgument("input must have rank 3 [N, C * prod(block_shape), L], got " +
                           xs.ToString());
  }
  const size_t rank = image.size();
  if (rank == 0 || block.size() != rank) {
    return InvalidArgument("image_shape " + DimsToString(image) + " and block_shape " +
                           DimsToString(block) +
                           " must be non-empty and name the same number of spatial axes");
  }
  ONNXGATE_RETURN_IF_ERROR(RequireAtLeast("image_shape", image, 1));
  ONNXGATE_RETURN_IF_ERROR(RequireAtLeast("block_shape", block, 1));
  auto check_length = [&](const char* what, const std::vector<int64_t>& v, size_t n) -> Status {
    if (!v.empty() && v.size() != n) {
      return InvalidArgument(std::string("'") + what + "' has " + std::to_string(v.size()) +
                             " values, expected " + std::to_string(n) + " for " +
                             std::to_string(rank) + " spatial axes");
    }
    return OkStatus();
  };
  ONNXGATE_RETURN_IF_ERROR(check_length("dilations", dilations_, rank));
  ONNXGATE_RETURN_IF_ERROR(check_length("pads", pads_, 2 * rank));
  ONNXGATE_RETURN_IF_ERROR(check_length("strides", strides_, rank));

  // The image is the "input" of the window geometry and the blocks its "output" positions.
  WindowGeometry g;
  g.input = image;
  g.kernel = block;
  g.strides = strides_.empty() ? std::vector<int64_t>(rank, 1) : strides_;
  g.dilations = dilations_.empty() ? std::vector<int64_t>(rank, 1) : dilations_;
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.output.assign(rank, 0);
  int64_t plane = 1, kernel_size = 1, positions = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (!pads_.empty()) {
      g.pad_begin[i] = pads_[i];
      g.pad_end[i] = pads_[rank + i];
    }
    if (image[i] > kMaxPlane / plane || block[i] > kMaxPlane / kernel_size ||
        g.dilations[i] > kMaxPlane / block[i] || g.pad_begin[i] > kMaxPlane ||
        g.pad_end[i] > kMaxPlane) {
      return InvalidArgument("image_shape " + DimsToString(image) + ", block_shape " +
                             DimsToString(block) + " or the attributes are too large");
    }
    plane *= image[i];
    kernel_size *= block[i];
    const int64_t span =
        image[i] + g.pad_begin[i] + g.pad_end[i] - ((block[i] - 1) * g.dilations[i] + 1);
    if (span < 0) {
      return InvalidArgument("on spatial axis " + std::to_string(i) + " the dilated block (" +
                             std::to_string((block[i] - 1) * g.dilations[i] + 1) +
                             ") is larger than the padded image (" +
                             std::to_string(image[i] + g.pad_begin[i] + g.pad_end[i]) + ")");
    }
    g.output[i] = span / g.strides[i] + 1;
    if (positions > xs[2] / g.output[i]) {
      return InvalidArgument("input dim 2 (" + std::to_string(xs[2]) +
                             ") is smaller than the number of sliding blocks the attributes "
                             "give for image_shape " +
                             DimsToString(image));
    }
    positions *= g.output[i];
  }

  if (xs[1] % kernel_size != 0) {
    return InvalidArgument(
        "input dim 1 (" + std::to_string(xs[1]) +
        ") is not a multiple of prod(block_shape) = " + std::to_string(kernel_size));
  }
  if (xs[2] != positions) {
    return InvalidArgument("input dim 2 (" + std::to_string(xs[2]) + ") must be the number of " +
                           "sliding blocks, " + DimsToString(g.output) + " = " +
                           std::to_string(positions));
  }
  const int64_t n = xs[0];
  const int64_t c = xs[1] / kernel_size;
  std::vector<int64_t> out_dims = {n, c};
  out_dims.insert(out_dims.end(), image.begin(), image.end());
  const Shape out_shape(out_dims);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, NewTensor(input->dtype(), out_shape));
  const int64_t planes = n * c;
  if (planes == 0) {
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }
  // K * P <= input dims 1 and 2, so the table is no larger than one image's columns.
  const std::vector<int64_t> table = WindowIndexTable(g);

  if (IsFloatingPoint(input->dtype())) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> col, ToDoubles(*input));
    std::vector<double> y(static_cast<size_t>(out.NumElements()), 0.0);
    ScatterAdd(col.data(), planes, plane, kernel_size, positions, table, y.data(),
               [](double& a, double b) { a += b; });
    ONNXGATE_ASSIGN_OR_RETURN(out, FromDoubles(input->dtype(), out_shape, y));
  } else {
    ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(input->dtype(), [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* col = input->data<T>();
      T* y = out.mutable_data<T>();
      if constexpr (std::is_same_v<T, bool>) {
        ScatterAdd(col, planes, plane, kernel_size, positions, table, y,
                   [](bool& a, bool b) { a = a || b; });
      } else if constexpr (kIsInt<T>) {
        ScatterAdd(col, planes, plane, kernel_size, positions, table, y,
                   [](T& a, T b) { a = WrapAdd(a, b); });
      } else if constexpr (std::is_same_v<T, std::string> ||
                           std::is_same_v<T, std::complex<float>> ||
                           std::is_same_v<T, std::complex<double>>) {
        ScatterAdd(col, planes, plane, kernel_size, positions, table, y,
                   [](T& a, const T& b) { a += b; });
      } else {
        return Unimplemented(std::string("Col2Im does not support ") +
                             DataTypeShortName(input->dtype()));
      }
      return OkStatus();
    }));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace onnxgate::ref
