// The opencl EP's registration table. Every kernel claims float32 alone, so each op is narrower
// than its schema (registration_test.cc tells the coverage check so); a node of another type is
// declined and runs on the next provider. A range spans several schema versions only where they
// differ in the types they add, never in float32 semantics; where the semantics change, the
// range is split (Softmax-13) or ends (a version with attributes the kernel does not read).
#include <utility>

#include "runtime/ep/opencl/kernels/binary.h"
#include "runtime/ep/opencl/kernels/conv.h"
#include "runtime/ep/opencl/kernels/elementwise.h"
#include "runtime/ep/opencl/kernels/matmul.h"
#include "runtime/ep/opencl/kernels/pool.h"
#include "runtime/ep/opencl/kernels/reduce.h"
#include "runtime/ep/opencl/kernels/softmax.h"
#include "runtime/ep/opencl/kernels/tensor.h"
#include "runtime/ep/opencl/opencl_kernels.h"

namespace onnxgate::opencl_ep {

namespace {

// ai.onnx `op`, versions since..until (closed, as kernel_def.h says), float32 for constraint T.
Status Def(KernelRegistry& r, const char* op, int since, int until, KernelFactory factory) {
  return r.Register(
      KernelDef{"", op, since, until, {{"T", {DataType::kFloat}}}, std::move(factory)});
}

KernelFactory Unary(UnaryOp op, const Context& cl) {
  return [op, cl](const KernelInfo& info) { return UnaryKernel::Create(info, op, cl); };
}

KernelFactory Binary(BinaryOp op, const Context& cl) {
  return [op, cl](const KernelInfo& info) { return BinaryKernel::Create(info, op, cl); };
}

KernelFactory Reduce(ReduceOp op, const Context& cl) {
  return [op, cl](const KernelInfo& info) { return ReduceKernel::Create(info, op, cl); };
}

KernelFactory Pool(PoolOp op, const Context& cl) {
  return [op, cl](const KernelInfo& info) { return PoolKernel::Create(info, op, cl); };
}

}  // namespace

Status RegisterOpenClKernels(KernelRegistry& r, std::shared_ptr<const OpenClContext> cl) {
  // Activations. Version 1 of each carries the legacy consumed_inputs attribute and is not
  // claimed; the later versions add types only (Relu-14 the signed integers, LeakyRelu-16 and
  // the -13s bfloat16, Abs-6 and Neg-6 integers).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Relu", 6, 14, Unary(UnaryOp::kRelu, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LeakyRelu", 6, 16, Unary(UnaryOp::kLeakyRelu, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sigmoid", 6, 13, Unary(UnaryOp::kSigmoid, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Tanh", 6, 13, Unary(UnaryOp::kTanh, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Exp", 6, 13, Unary(UnaryOp::kExp, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Log", 6, 13, Unary(UnaryOp::kLog, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sqrt", 6, 13, Unary(UnaryOp::kSqrt, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Abs", 6, 13, Unary(UnaryOp::kAbs, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Neg", 6, 13, Unary(UnaryOp::kNeg, cl)));

  // Arithmetic with numpy broadcasting: version 7 on (1 and 6 broadcast by attribute); 13 and
  // 14 add types.
  const std::pair<const char*, BinaryOp> binary[] = {{"Add", BinaryOp::kAdd},
                                                     {"Sub", BinaryOp::kSub},
                                                     {"Mul", BinaryOp::kMul},
                                                     {"Div", BinaryOp::kDiv}};
  for (const auto& [name, op] : binary) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 7, 14, Binary(op, cl)));
  }

  // MatMul: numpy.matmul semantics in every version (9 and 13 add types). Gemm from 7, where C
  // is broadcast unidirectionally without an attribute; 11 makes C optional; 9 and 13 add types.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMul", 1, 13, With<MatMulKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 7, 13, With<GemmKernel>(cl)));

  // Softmax: 1 and 11 coerce the input to 2-D at `axis` (default 1); 13 normalizes along one
  // axis (default -1).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Softmax", 1, 12, With<SoftmaxKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Softmax", 13, 13, With<SoftmaxKernel>(cl)));

  // Reductions: 1 takes non-negative axes as an attribute, 11 negative ones too; the axes become
  // an optional input (with noop_with_empty_axes) in ReduceSum-13 and ReduceMean-18.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 1, 10, Reduce(ReduceOp::kSum, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 11, 12, Reduce(ReduceOp::kSum, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 13, 13, Reduce(ReduceOp::kSum, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceMean", 1, 10, Reduce(ReduceOp::kMean, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceMean", 11, 17, Reduce(ReduceOp::kMean, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceMean", 18, 18, Reduce(ReduceOp::kMean, cl)));

  // Pooling, split where the schema changes more than types (the kernel reads each version's
  // attributes): MaxPool-8 adds the Indices output (declined at load) and storage_order, -10
  // ceil_mode and dilations, -11 rewords the spec (kept apart as the ref EP keeps it; -12 and
  // -22 add types); AveragePool-7 adds count_include_pad, -10 ceil_mode, -11 as MaxPool's, -19
  // dilations (-22 adds bfloat16). The global ones have no attributes (-22 adds bfloat16).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 1, 7, Pool(PoolOp::kMaxPool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 8, 9, Pool(PoolOp::kMaxPool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 10, 10, Pool(PoolOp::kMaxPool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 11, 22, Pool(PoolOp::kMaxPool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 1, 6, Pool(PoolOp::kAveragePool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 7, 9, Pool(PoolOp::kAveragePool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 10, 10, Pool(PoolOp::kAveragePool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 11, 18, Pool(PoolOp::kAveragePool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 19, 22, Pool(PoolOp::kAveragePool, cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalMaxPool", 1, 22, Pool(PoolOp::kGlobalMaxPool, cl)));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GlobalAveragePool", 1, 22, Pool(PoolOp::kGlobalAveragePool, cl)));

  // Data movement. Transpose: every version has the same semantics (13 to 25 add types).
  // Concat: 4 requires the axis (1 defaulted it), 11 allows it negative. Reshape from 5 (shape
  // as an input), 14 adds allowzero; 19 to 25 add types.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 1, 25, With<TransposeKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 4, 10, With<ConcatKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 11, 13, With<ConcatKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 5, 13, With<ReshapeKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 14, 25, With<ReshapeKernel>(cl)));
  // Flatten, the same view: 11 allows a negative axis, 13 to 25 add types only.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 1, 10, With<FlattenKernel>(cl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 11, 25, With<FlattenKernel>(cl)));

  // Conv-11 and -22 (22 adds bfloat16), the range dnnl claims; Conv-1 is left to ref.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Conv", 11, 22, With<ConvKernel>(cl)));
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
