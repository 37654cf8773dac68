// Tensors that stay in the layout a oneDNN primitive chose (blocked, say nChw8c) between the dnnl
// kernels that read such layouts, instead of being reordered to ONNX's plain layout and back
// around every node: the dnnl EP's ResidentTensor, and the input and output helpers of the
// kernels that take them (Conv, ConvTranspose, pooling, the activations, the binary ops).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/resident_tensor.h"
#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// A float32 tensor in a oneDNN memory of a layout other than the plain one, owned by it.
class DnnlResident : public ResidentTensor {
 public:
  // `all_finite`: its writer guarantees no NaN or infinity in it (a fused clip to finite
  // bounds), so a reader that needs to know (Conv's fused activation) need not scan it.
  DnnlResident(std::shared_ptr<const DnnlContext> dnnl, dnnl::memory memory, Shape shape,
               bool all_finite = false)
      : dnnl_(std::move(dnnl)),
        memory_(std::move(memory)),
        shape_(std::move(shape)),
        all_finite_(all_finite) {}

  const void* domain() const override { return dnnl_.get(); }
  const std::string& provider() const override;
  DataType dtype() const override { return DataType::kFloat; }
  const Shape& shape() const override { return shape_; }
  // One reorder to the plain layout.
  StatusOr<Tensor> ToHost() const override;

  const dnnl::memory& memory() const { return memory_; }
  bool all_finite() const { return all_finite_; }

 private:
  std::shared_ptr<const DnnlContext> dnnl_;
  dnnl::memory memory_;
  Shape shape_;
  bool all_finite_;
};

// Input `index` of a dnnl kernel, called `name` in the op's schema, as oneDNN memory: a host
// float32 tensor wrapped where it lies (plain layout), or a resident tensor of `dnnl` as it is.
struct DnnlInput {
  Shape shape;
  dnnl::memory memory;
  const Tensor* host = nullptr;  // the host tensor; null when resident
  bool known_finite = false;     // a resident tensor whose writer guarantees it finite
};
StatusOr<DnnlInput> GetDnnlInput(const KernelContext& ctx, const DnnlContext& dnnl, size_t index,
                                 const char* name);

// Input `index` as a host tensor: the tensor itself, or the plain copy of a resident one, made in
// `*copy` (a kernel's path that needs the plain layout).
StatusOr<const Tensor*> GetHostInput(const KernelContext& ctx, size_t index, const char* name,
                                     Tensor* copy);

// The output of a primitive whose destination layout is `desc`, of `shape`: a host tensor when
// the layout is the plain one (written in place), else a resident tensor. memory() is what the
// primitive writes; Take() gives the value once it has.
class DnnlOutput {
 public:
  static StatusOr<DnnlOutput> Create(std::shared_ptr<const DnnlContext> dnnl,
                                     const dnnl::memory::desc& desc, Shape shape);
  const dnnl::memory& memory() const { return memory_; }
  // `all_finite`: what the primitive wrote holds no NaN or infinity whatever its inputs (kept
  // with a resident value, DnnlResident::all_finite).
  Value Take(bool all_finite = false);

 private:
  std::shared_ptr<const DnnlContext> dnnl_;
  dnnl::memory memory_;
  Shape shape_;
  std::optional<Tensor> host_;
};

// A key of a memory layout for primitive caches: the format kind, strides and inner blocks of
// `desc` (dims are keyed separately).
std::vector<int64_t> LayoutKey(const dnnl::memory::desc& desc);

// Whether `w` is `constant` itself (the same storage and shape), so that the copy reordered into
// a primitive's layout when its cache entry was made serves for it.
bool IsTheConstant(const std::optional<Tensor>& constant, const Tensor& w);

// The cache key of a primitive with weights (Conv, ConvTranspose): X's dims and layout, W's
// dims, whether B is given, and whether W is the constant kept with the entry.
std::vector<int64_t> WeightedPrimitiveKey(const Shape& x_shape, const dnnl::memory::desc& x_desc,
                                          const Shape& w_shape, bool has_bias, bool w_is_constant);

// Fills Y [N, M, ...] with the bias B [M] on each channel (no bias: left as it is).
void FillWithBias(Tensor* y, int64_t m, const Tensor* b);

}  // namespace onnxgate::dnnl_ep
