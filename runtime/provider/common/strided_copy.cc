// Data movement by strided walk.
#include "runtime/provider/common/strided_copy.h"

#include "runtime/provider/common/broadcast.h"

namespace onnxgate {

void CopyStrided(const Tensor& src, const std::vector<int64_t>& walk_dims,
                 const std::vector<int64_t>& strides, int64_t base, Tensor* dst) {
  ONNXGATE_CHECK(walk_dims.size() == strides.size());
  WithElementMover(src, dst, [&](auto move) {
    ForEachStrided(walk_dims, {strides}, {base},
                   [&](int64_t i, const int64_t* off) { move(off[0], i); });
  });
}

void CopyElements(const Tensor& src, int64_t src_at, Tensor* dst, int64_t dst_at, int64_t count) {
  WithElementMover(src, dst, [&](auto move) {
    for (int64_t k = 0; k < count; ++k) move(src_at + k, dst_at + k);
  });
}

}  // namespace onnxgate
