// MatMul (numpy's matmul: batched, batch dims broadcast, 1-D operands promoted and squeezed) and
// Gemm (transA, transB, alpha, beta, C broadcast to [M, N]) on oneDNN's matmul primitive,
// float32. Gemm's C of shape [N] or [1, N] with alpha = beta = 1 is the primitive's bias, added
// as each row of Y is written; any other C is added as beta * C by the binary primitive after.
// MatMul takes a bias and an activation the same way for dnnl's MatMul claim (matmul_fusion.h).
//
// A constant B (an initializer or Constant: a layer's weights) is reordered once, when the
// primitive is made, and kept with it. A 2-D one makes MatMul a 1x1 convolution over A's rows
// (ProjectionEntry, below). A batched one, and Gemm's, go to column-major matrices (each [K, N]
// stored as its transpose [N, K]): oneDNN 2.6's gemm:jit on AVX2 runs up to 3.7 times faster on
// B in that layout (a [128, 256] x [256, 1024] product: 20 against 74 GFLOP/s on one core) and
// was not slower on any shape measured, M = 1 included. A B that is not constant is read as it
// comes.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct MatMulEntry {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  dnnl::memory::desc a, b, y;
  // The constant B in the primitive's layout, reordered when the entry was made.
  std::optional<dnnl::memory> b_constant;
  // The primitive's bias, [1, ..., 1, N] (MatMul's claimed bias, Gemm's C as a bias).
  std::optional<dnnl::memory::desc> bias;
  // Gemm with another C: Y += beta * C.
  std::optional<dnnl::binary::primitive_desc> add_pd;
  std::optional<dnnl::binary> add;
  dnnl::memory::desc c;
};

// A MatMul with a constant 2-D B run as a 1x1 convolution over A's rows: A [..., K] is the
// convolution's input of K channels at M pixels (nwc: A as it lies), B [K, N] its weights
// (reordered once into the convolution's blocked layout), Y [..., N] its output (nwc). oneDNN
// 2.6's jit_1x1 convolution runs these products 5-45% faster than its gemm on AVX2 ([128, 256]
// x [256, 1024]: 82 against 75 GFLOP/s; [16, 512] x [512, 512]: 86-89 against 50-62).
struct ProjectionEntry {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
  dnnl::memory::desc a, y, bias;
  dnnl::memory weights;  // B in the primitive's layout
};

// What dnnl's MatMul claim (matmul_fusion.h) has the product carry as oneDNN writes it: the
// Add of a bias along the last axis, then an activation as post-ops. A matmul with neither is
// MatMul alone.
struct MatMulEpilogue {
  // Input 2, the bias: [N] or [1, ..., 1, N], of no higher rank than Y. A and B must then be of
  // rank 2 or more (a 1-D operand would drop the axis the bias runs along).
  bool bias = false;
  // Post-ops after the bias: Gelu's (gelu_erf or gelu_tanh), which keep a NaN a NaN and give NaN
  // for -inf as the nodes do. Steps that need oneDNN's reference implementation are refused.
  std::vector<EltwiseStep> activation;

  bool empty() const { return !bias && activation.empty(); }
};

class MatMulKernel : public OpKernel {
 public:
  // With a non-empty `epilogue`, Unimplemented when oneDNN has no matmul that carries it.
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl,
                                                    MatMulEpilogue epilogue = {});
  Status Compute(KernelContext& ctx) const override;

 private:
  MatMulKernel(std::shared_ptr<const DnnlContext> dnnl, std::optional<Tensor> b_constant,
               MatMulEpilogue epilogue)
      : dnnl_(std::move(dnnl)),
        b_constant_(std::move(b_constant)),
        epilogue_(std::move(epilogue)) {}

  // Y when K is 0 (every sum empty): the bias on each row, or zeros, then the activation.
  Status ComputeWithoutProduct(const Tensor* bias, Tensor* y) const;
  // The 1x1 convolution for `rows` rows of A against the constant B [K, N] (made once per row
  // count); null when oneDNN has none for it, and the matmul runs instead.
  StatusOr<std::shared_ptr<const ProjectionEntry>> Projection(int64_t rows, int64_t k, int64_t n,
                                                              bool with_bias) const;

  std::shared_ptr<const DnnlContext> dnnl_;
  std::optional<Tensor> b_constant_;  // shares the constant's storage
  MatMulEpilogue epilogue_;
  PrimitiveCache<MatMulEntry> cache_;
  PrimitiveCache<ProjectionEntry> projection_cache_;
  PrimitiveCache<EltwiseEntry> activation_cache_;  // for ComputeWithoutProduct
};

// Gemm-7 on (C always broadcasts unidirectionally; from 11 it is optional).
class GemmKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  GemmKernel(std::shared_ptr<const DnnlContext> dnnl, bool trans_a, bool trans_b, float alpha,
             float beta, std::optional<Tensor> b_constant)
      : dnnl_(std::move(dnnl)),
        trans_a_(trans_a),
        trans_b_(trans_b),
        alpha_(alpha),
        beta_(beta),
        b_constant_(std::move(b_constant)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  bool trans_a_, trans_b_;
  float alpha_, beta_;
  std::optional<Tensor> b_constant_;  // shares the constant's storage
  PrimitiveCache<MatMulEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
