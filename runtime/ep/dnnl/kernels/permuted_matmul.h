// A MatMul whose operands are Transposes of A and B and whose result is scaled by a constant and
// transposed, on one oneDNN matmul (dnnl's claim in permuted_matmul_fusion.h): a Transpose is a
// permutation of strides, so the primitive reads A and B and writes Y in place through strided
// memory descriptors, and the scale is its output scale. Nothing is copied for a Transpose, and
// the scaled product is written once. Attention's Q x K^T, scaled, and probabilities x V, its
// heads merged back, are this shape.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// What surrounds the MatMul in a claim. An empty perm with `*_transposed` set is Transpose's
// default, the reversed axes.
struct MatMulPermutations {
  bool a_transposed = false;  // input 0 is the Transpose's input, permuted by a_perm
  std::vector<int64_t> a_perm;
  bool b_transposed = false;  // input 1 likewise
  std::vector<int64_t> b_perm;
  std::optional<float> scale;  // Y times this (a Mul by a one-element constant), finite
  bool y_transposed = false;   // the output is Y permuted by y_perm
  std::vector<int64_t> y_perm;
};

class PermutedMatMulKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(std::shared_ptr<const DnnlContext> dnnl,
                                                    MatMulPermutations permutations);
  Status Compute(KernelContext& ctx) const override;

 private:
  struct Entry {
    dnnl::matmul::primitive_desc pd;
    dnnl::matmul primitive;
    dnnl::memory::desc a, b, y;
  };
  PermutedMatMulKernel(std::shared_ptr<const DnnlContext> dnnl, MatMulPermutations permutations)
      : dnnl_(std::move(dnnl)), permutations_(std::move(permutations)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  MatMulPermutations permutations_;
  PrimitiveCache<Entry> cache_;
};

}  // namespace onnxgate::dnnl_ep
