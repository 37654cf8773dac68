// Data movement for every element type (numbers, bool, string, complex, the FLOAT8 types and the
// packed sub-byte types INT4, UINT4, FLOAT4E2M1, INT2, UINT2): the core of Transpose, Slice,
// Expand, Tile, Concat, Split and Pad. Packed elements share bytes, so they move element by
// element, never byte by byte.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

// Calls fn(move) once, where move(i, j) copies element i of `src` to element j of `dst`. src and
// dst share the element type, which may be any defined type; `dst` must own its storage (a
// tensor made for this output), since packed elements are written in place.
template <typename Fn>
void WithElementMover(const Tensor& src, Tensor* dst, Fn&& fn) {
  ONNXGATE_CHECK(src.dtype() == dst->dtype());
  const DataType type = src.dtype();
  if (IsPackedSubByte(type)) {
    fn([&src, dst](int64_t i, int64_t j) { dst->SetPackedCode(j, src.PackedCode(i)); });
    return;
  }
  auto typed = [&](auto tag) {
    using T = decltype(tag);
    const T* in = src.data<T>();
    T* out = dst->mutable_data<T>();
    fn([in, out](int64_t i, int64_t j) { out[j] = in[i]; });
    return OkStatus();
  };
  Status st = IsFloat8(type) ? VisitFloat8Types(type, typed) : VisitAllTypes(type, typed);
  ONNXGATE_CHECK(st.ok());  // every defined element type is byte-sized, packed or a C++ type
}

// Walks `dst` in row-major order and copies dst[i] = src[base + sum_d index_d * strides[d]],
// where index is the multi-index of i in `walk_dims` (whose product is dst's element count) and
// strides has one entry per walk dim. src and dst share the element type. The caller guarantees
// that every offset lies inside src.
void CopyStrided(const Tensor& src, const std::vector<int64_t>& walk_dims,
                 const std::vector<int64_t>& strides, int64_t base, Tensor* dst);

// Copies src[src_at + k] to dst[dst_at + k] for k in [0, count). Same element type; the caller
// guarantees both ranges lie inside their tensors.
void CopyElements(const Tensor& src, int64_t src_at, Tensor* dst, int64_t dst_at, int64_t count);

}  // namespace onnxgate
