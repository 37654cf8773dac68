// Elementwise activations on oneDNN's eltwise primitive: Relu, LeakyRelu, Sigmoid, Tanh, Exp,
// Log, Sqrt, Abs, Elu, HardSigmoid, Softplus, Gelu and Clip, float32.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

enum class EltwiseOp {
  kRelu,
  kLeakyRelu,
  kSigmoid,
  kTanh,
  kExp,
  kLog,
  kSqrt,
  kAbs,
  kElu,
  kHardSigmoid,
  kSoftplus,
  kGelu,  // approximate = "none" (erf) or "tanh"
};

// One eltwise primitive: oneDNN's algorithm with its alpha and beta.
struct EltwiseStep {
  dnnl::algorithm algorithm;
  float alpha = 0.0f;
  float beta = 0.0f;
  // Run on oneDNN's reference implementation (UseReferenceImplementation): log and soft_relu.
  bool accurate = false;
};

// The primitives of one element count and step list.
struct EltwiseEntry {
  std::vector<dnnl::eltwise_forward::primitive_desc> pds;
  std::vector<dnnl::eltwise_forward> primitives;
};

// The steps of activation `op` as the node's attributes configure it.
StatusOr<std::vector<EltwiseStep>> EltwiseStepsOf(const KernelInfo& info, EltwiseOp op);

// Clip's step for bounds `lo` and `hi`: a NaN bound clips nothing and min > max gives max
// everywhere, as the spec says.
EltwiseStep ClipStep(float lo, float hi);

// Runs the steps from `src` into `dst`, two memories of one layout (any), with NaN inputs
// copied through as RunEltwise does; primitives cached in `cache` by layout and dims.
Status ApplyEltwise(const DnnlContext& dnnl, const PrimitiveCache<EltwiseEntry>& cache,
                    const dnnl::memory& src, const dnnl::memory& dst,
                    const std::vector<EltwiseStep>& steps);

// Y = steps(X), each step in place on Y after the first; the tensor is seen as one flat run of
// elements, so any rank (scalars included) takes the same primitive. oneDNN's relu, exp and
// clip turn a NaN into 0, +inf and the lower bound; ONNX's activations (numpy's) give NaN for
// NaN, so NaN inputs are copied through to Y afterwards. Log and Softplus run on oneDNN's
// reference implementation (dnnl_common.h says why).
StatusOr<Tensor> RunEltwise(const DnnlContext& dnnl, const PrimitiveCache<EltwiseEntry>& cache,
                            const Tensor& x, const std::vector<EltwiseStep>& steps);

// The steps on input `index` (called `name`) of `ctx`: RunEltwise on a host tensor; a resident
// tensor is transformed in its own layout into a resident output.
StatusOr<Value> RunEltwiseOnInput(const std::shared_ptr<const DnnlContext>& dnnl,
                                  const PrimitiveCache<EltwiseEntry>& cache,
                                  const KernelContext& ctx, size_t index, const char* name,
                                  const std::vector<EltwiseStep>& steps);

class EltwiseKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, EltwiseOp op,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  // The kernel of `steps` as given, for a subgraph claim that is one activation (gelu_fusion.h).
  static std::unique_ptr<OpKernel> FromSteps(std::vector<EltwiseStep> steps,
                                             std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  EltwiseKernel(std::shared_ptr<const DnnlContext> dnnl, std::vector<EltwiseStep> steps)
      : dnnl_(std::move(dnnl)), steps_(std::move(steps)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  std::vector<EltwiseStep> steps_;
  PrimitiveCache<EltwiseEntry> cache_;
};

// Clip-6 (bounds as attributes, the float range by default) and Clip-11..13 (optional scalar
// inputs min and max). min > max gives max everywhere, as the spec says.
class ClipKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  ClipKernel(std::shared_ptr<const DnnlContext> dnnl, bool bounds_are_inputs, float lo, float hi)
      : dnnl_(std::move(dnnl)), bounds_are_inputs_(bounds_are_inputs), lo_(lo), hi_(hi) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  bool bounds_are_inputs_;
  float lo_, hi_;  // the attributes (Clip-6)
  PrimitiveCache<EltwiseEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
