// The output shapes of Reshape, Flatten, Squeeze and Unsqueeze.
#include "runtime/provider/common/shape_ops.h"

#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate {

StatusOr<Shape> ReshapeShape(const Shape& input, const std::vector<int64_t>& requested,
                             bool allow_zero) {
  std::vector<int64_t> dims(requested.size());
  int64_t infer_at = -1;
  bool has_zero = false;
  int64_t known = 1;  // product of the dims other than -1
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t d = requested[i];
    if (d == -1) {
      if (infer_at >= 0) {
        return InvalidArgument("shape " + ListToString(requested) + " has more than one -1");
      }
      infer_at = static_cast<int64_t>(i);
      continue;
    }
    if (d < -1) {
      return InvalidArgument("shape " + ListToString(requested) + " has the negative dim " +
                             std::to_string(d));
    }
    if (d == 0 && !allow_zero) {
      if (i >= input.rank()) {
        return InvalidArgument("shape " + ListToString(requested) + " copies dim " +
                               std::to_string(i) + " with 0, but the input " + input.ToString() +
                               " has rank " + std::to_string(input.rank()));
      }
      d = input[i];
    }
    has_zero = has_zero || requested[i] == 0;
    dims[i] = d;
    ONNXGATE_ASSIGN_OR_RETURN(Shape partial, StatusOr<Shape>(Shape({known, d})));
    ONNXGATE_RETURN_IF_ERROR(partial.Validate());
    known *= d;
  }
  if (allow_zero && has_zero && infer_at >= 0) {
    return InvalidArgument("with allowzero=1 the shape " + ListToString(requested) +
                           " may not hold both 0 and -1");
  }
  const int64_t count = input.NumElements();
  if (infer_at >= 0) {
    if (known == 0 || count % known != 0) {
      return InvalidArgument("cannot infer the -1 in " + ListToString(requested) +
                             " for the input " + input.ToString() + " of " + std::to_string(count) +
                             " elements");
    }
    dims[infer_at] = count / known;
  } else if (known != count) {
    return InvalidArgument("cannot reshape " + input.ToString() + " (" + std::to_string(count) +
                           " elements) to " + ListToString(requested) + " (" +
                           std::to_string(known) + " elements)");
  }
  return Shape(std::move(dims));
}

StatusOr<Shape> FlattenShape(const Shape& input, int64_t axis, bool allow_negative) {
  const int64_t rank = static_cast<int64_t>(input.rank());
  int64_t a = axis;
  if (a < 0 && allow_negative) a += rank;
  if (a < 0 || a > rank) {
    return InvalidArgument("axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank) +
                           (allow_negative ? " (allowed: [-r, r])" : " (allowed: [0, r])"));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < a ? outer : inner) *= input[d];
  return Shape({outer, inner});
}

StatusOr<Shape> SqueezeShape(const Shape& input, const std::optional<std::vector<int64_t>>& axes,
                             bool allow_negative) {
  const int64_t rank = static_cast<int64_t>(input.rank());
  std::vector<bool> drop(input.rank(), false);
  if (axes) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                              NormalizeAxesOf(*axes, rank, allow_negative));
    for (int64_t a : normalized) {
      if (rank == 0 || input[a] != 1) {
        return InvalidArgument("cannot squeeze dim " + std::to_string(a) + " of " +
                               input.ToString() + ": its size is not 1");
      }
      drop[a] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) drop[d] = input[d] == 1;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!drop[d]) dims.push_back(input[d]);
  }
  return Shape(std::move(dims));
}

StatusOr<Shape> UnsqueezeShape(const Shape& input, const std::vector<int64_t>& axes,
                               bool allow_negative) {
  const int64_t out_rank = static_cast<int64_t>(input.rank() + axes.size());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axes, out_rank, allow_negative));
  std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
  for (int64_t a : normalized) inserted[a] = true;
  std::vector<int64_t> dims;
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) dims.push_back(inserted[d] ? 1 : input[next++]);
  return Shape(std::move(dims));
}

}  // namespace onnxgate
