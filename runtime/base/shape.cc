// Shape arithmetic: element counts with overflow checks, strides, broadcasting, axes.
#include "runtime/base/shape.h"

#include <algorithm>

namespace onnxgate {

int64_t Shape::NumElements() const {
  int64_t n = 1;
  for (int64_t d : dims_) n *= d;
  return n;
}

std::vector<int64_t> Shape::Strides() const {
  std::vector<int64_t> strides(dims_.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims_.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims_[i + 1];
  }
  return strides;
}

Status Shape::Validate(int64_t limit) const {
  int64_t n = 1;
  for (size_t i = 0; i < dims_.size(); ++i) {
    int64_t d = dims_[i];
    if (d < 0) {
      return InvalidArgument("dim " + std::to_string(i) + " of shape " + ToString() +
                             " is negative");
    }
    if (d != 0 && n > limit / d) {
      return InvalidArgument("shape " + ToString() + " has more elements than the limit " +
                             std::to_string(limit));
    }
    n *= d;
  }
  return OkStatus();
}

std::string Shape::ToString() const {
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(dims_[i]);
  }
  return s + "]";
}

StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.rank() ? 1 : a[i - (rank - a.rank())];
    int64_t db = i < rank - b.rank() ? 1 : b[i - (rank - b.rank())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return InvalidArgument("shapes " + a.ToString() + " and " + b.ToString() +
                             " cannot be broadcast (dim " + std::to_string(i) + ": " +
                             std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
  }
  return Shape(std::move(out));
}

StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  int64_t lo = -rank, hi = rank - 1;
  if (rank == 0) lo = hi = 0;
  if (axis < lo || axis > hi) {
    return InvalidArgument("axis " + std::to_string(axis) + " is out of range [" +
                           std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return axis < 0 ? axis + rank : axis;
}

}  // namespace onnxgate
