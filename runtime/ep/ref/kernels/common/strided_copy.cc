// Data movement by strided walk.
#include "runtime/ep/ref/kernels/common/strided_copy.h"

#include "runtime/ep/ref/kernels/common/broadcast.h"

namespace onnxgate::ref {

void CopyStrided(const Tensor& src, const std::vector<int64_t>& walk_dims,
                 const std::vector<int64_t>& strides, int64_t base, Tensor* dst) {
  ONNXGATE_CHECK(src.dtype() == dst->dtype());
  ONNXGATE_CHECK(walk_dims.size() == strides.size());
  Status st = VisitAllTypes(src.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = src.data<T>();
    T* out = dst->mutable_data<T>();
    ForEachStrided(walk_dims, {strides}, {base},
                   [&](int64_t i, const int64_t* off) { out[i] = in[off[0]]; });
    return OkStatus();
  });
  ONNXGATE_CHECK(st.ok());  // every defined element type has a C++ type
}

}  // namespace onnxgate::ref
