// numpy multidirectional broadcasting for every provider's kernels: the broadcast shape of any
// number of inputs, the strided walk that visits every output element together with the flat offset
// of the element each input contributes, and ONNX's pre-opset-7 "legacy" broadcast of B onto A.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate {

// The shape every one of `shapes` broadcasts to: ranks align on the right, and each dim pair
// must be equal or contain a 1. InvalidArgument naming both shapes otherwise. A zero-size dim
// broadcasts with 1 (to 0) and with 0, as in numpy.
StatusOr<Shape> BroadcastShapeOf(const std::vector<Shape>& shapes);

// Row-major strides of `in` as seen from `out` (rank of `out`): 0 where `in` lacks the dim or
// has size 1 against a larger dim, so a walk over `out` revisits the same element.
std::vector<int64_t> BroadcastStrides(const Shape& in, const Shape& out);

// Visits every index of a row-major box of `dims`, in order, and passes fn(i, offsets) where i is
// the flat index and offsets[k] = bases[k] + sum over d of index[d] * strides[k][d]. Each
// strides[k] has one entry per dim. Nothing is visited when a dim is 0; a rank-0 box has one
// element.
template <typename Fn>
void ForEachStrided(const std::vector<int64_t>& dims,
                    const std::vector<std::vector<int64_t>>& strides,
                    const std::vector<int64_t>& bases, Fn&& fn) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (count == 0) return;
  const size_t rank = dims.size();
  const size_t k = strides.size();
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> offsets = bases;
  offsets.resize(k, 0);
  for (int64_t i = 0; i < count; ++i) {
    fn(i, static_cast<const int64_t*>(offsets.data()));
    // Odometer step: bump the last dim; on wrap, rewind it and carry into the next one.
    for (size_t d = rank; d-- > 0;) {
      for (size_t j = 0; j < k; ++j) offsets[j] += strides[j][d];
      if (++index[d] < dims[d]) break;
      for (size_t j = 0; j < k; ++j) offsets[j] -= strides[j][d] * dims[d];
      index[d] = 0;
    }
  }
}

// Visits every element of `out` with the flat offset of the matching element of each input;
// `out` must be what the inputs broadcast to.
template <typename Fn>
void ForEachBroadcast(const Shape& out, const std::vector<Shape>& inputs, Fn&& fn) {
  std::vector<std::vector<int64_t>> strides;
  for (const Shape& in : inputs) strides.push_back(BroadcastStrides(in, out));
  ForEachStrided(out.dims(), strides, std::vector<int64_t>(inputs.size(), 0), std::forward<Fn>(fn));
}

// y[i] = f(a[.], b[.]) over the broadcast of a and b; `y` must already have the broadcast shape.
// A, B and Y are the element types of the three tensors.
template <typename A, typename B, typename Y, typename F>
void BroadcastBinary(const Tensor& a, const Tensor& b, Tensor* y, F&& f) {
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  Y* py = y->mutable_data<Y>();
  if (a.shape() == y->shape() && b.shape() == y->shape()) {
    // Same shapes: the plain loop, which is also what the strided walk would do.
    for (int64_t i = 0, n = y->NumElements(); i < n; ++i) py[i] = f(pa[i], pb[i]);
    return;
  }
  ForEachBroadcast(y->shape(), {a.shape(), b.shape()},
                   [&](int64_t i, const int64_t* off) { py[i] = f(pa[off[0]], pb[off[1]]); });
}

// ONNX before opset 7 (Add-1/6, And-1, Pow-1, Equal-1, ...): B is broadcast onto A only when the
// `broadcast` attribute is 1, and then B's shape must be a contiguous run of A's dims starting at
// `axis` (suffix matching when `axis` is absent), or B must hold one element.
struct LegacyBroadcast {
  bool enabled = false;  // the op version has the attributes at all
  int64_t broadcast = 0;
  std::optional<int64_t> axis;

  // Reads `broadcast` and `axis` when the node's version is below 7.
  static StatusOr<LegacyBroadcast> FromInfo(const KernelInfo& info);

  // B viewed with the rank of A (1s inserted around it), so that numpy broadcasting of the view
  // reproduces the legacy rule; B itself when the rule is not enabled. InvalidArgument when the
  // shapes do not satisfy the rule.
  StatusOr<Tensor> AlignB(const Tensor& a, const Tensor& b) const;
};

}  // namespace onnxgate
