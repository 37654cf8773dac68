// The dnnl EP's registration table. Every kernel claims float32 alone, so each op is narrower
// than its schema (registration_test.cc says so to the coverage check); a node of another type
// is declined and runs on the next provider. A range spans several schema versions only where
// they differ in the types they add, never in float32 semantics.
#include <map>
#include <string>
#include <utility>

#include "runtime/ep/dnnl/dnnl_kernels.h"
#include "runtime/ep/dnnl/kernels/batch_normalization.h"
#include "runtime/ep/dnnl/kernels/binary.h"
#include "runtime/ep/dnnl/kernels/concat.h"
#include "runtime/ep/dnnl/kernels/conv.h"
#include "runtime/ep/dnnl/kernels/conv_transpose.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/ep/dnnl/kernels/identity.h"
#include "runtime/ep/dnnl/kernels/layer_normalization.h"
#include "runtime/ep/dnnl/kernels/matmul.h"
#include "runtime/ep/dnnl/kernels/pool.h"
#include "runtime/ep/dnnl/kernels/softmax.h"
#include "runtime/ep/dnnl/kernels/transpose.h"
#include "runtime/provider/borrowed_kernel.h"

namespace onnxgate::dnnl_ep {

namespace {

using Context = std::shared_ptr<const DnnlContext>;
using Host = std::shared_ptr<const ExecutionProvider>;

// `factory`, for a node whose every input is known at load to be float32. The registry matches
// a node on the element types known at load; an input whose type is unknown then (a value in a
// subgraph that type inference left untyped) could bring any type at run time, where no
// provider can take the node back, so such a node is declined here and runs on the next one.
// Every input of every dnnl kernel is of constraint T, float32.
KernelFactory FloatInputsOnly(KernelFactory factory) {
  return [factory =
              std::move(factory)](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
    for (size_t i = 0; i < info.num_inputs(); ++i) {
      if (info.has_input(i) && info.input_type(i) != DataType::kFloat) {
        return Unimplemented("the element type of input " + std::to_string(i) +
                             " is not known at load; dnnl's kernels take float32 alone");
      }
    }
    return factory(info);
  };
}

// FloatInputsOnly for a node whose input 0 alone is of T (Reshape's shape input is int64,
// Gather's indices int32 or int64).
KernelFactory FloatDataInput(KernelFactory factory) {
  return [factory =
              std::move(factory)](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
    if (info.input_type(0) != DataType::kFloat) {
      return Unimplemented(
          "the element type of input 0 is not known at load; dnnl's kernels "
          "take float32 alone");
    }
    return factory(info);
  };
}

// ai.onnx `op`, versions since..until (closed, as kernel_def.h says), float32 for constraint T.
Status Def(KernelRegistry& r, const char* op, int since, int until, KernelFactory factory) {
  return r.Register(KernelDef{
      "", op, since, until, {{"T", {DataType::kFloat}}}, FloatInputsOnly(std::move(factory))});
}

KernelFactory Eltwise(EltwiseOp op, const Context& dnnl) {
  return [op, dnnl](const KernelInfo& info) { return EltwiseKernel::Create(info, op, dnnl); };
}

// The factory of the kernel `host` lends for the node (borrowed_kernel.h), its constraint T bound
// to float32 and, when `index_constraint` is given, that constraint to input 1's element type
// (Gather's indices).
KernelFactory Borrowed(Host host, const char* index_constraint = nullptr) {
  return [host = std::move(host), index_constraint](const KernelInfo& info) {
    std::map<std::string, DataType> bound = {{"T", DataType::kFloat}};
    if (index_constraint != nullptr) bound[index_constraint] = info.input_type(1);
    return CreateBorrowedKernel(*host, info, bound);
  };
}

// The factory of a kernel whose Create takes the info and the context.
template <typename K>
KernelFactory With(const Context& dnnl) {
  return [dnnl](const KernelInfo& info) { return K::Create(info, dnnl); };
}

}  // namespace

Status RegisterDnnlKernels(KernelRegistry& r, Context dnnl, Host host) {
  // Activations. Version 1 of most of them carries the legacy consumed_inputs attribute and is
  // not claimed; the later versions add types only (Relu-14 the signed integers, Elu-22,
  // HardSigmoid-22 and Softplus-22 bfloat16, LeakyRelu-16 bfloat16, the -13s bfloat16).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Relu", 6, 14, Eltwise(EltwiseOp::kRelu, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LeakyRelu", 6, 16, Eltwise(EltwiseOp::kLeakyRelu, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sigmoid", 6, 13, Eltwise(EltwiseOp::kSigmoid, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Tanh", 6, 13, Eltwise(EltwiseOp::kTanh, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Exp", 6, 13, Eltwise(EltwiseOp::kExp, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Log", 6, 13, Eltwise(EltwiseOp::kLog, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sqrt", 6, 13, Eltwise(EltwiseOp::kSqrt, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Abs", 6, 13, Eltwise(EltwiseOp::kAbs, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Elu", 6, 22, Eltwise(EltwiseOp::kElu, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "HardSigmoid", 6, 22, Eltwise(EltwiseOp::kHardSigmoid, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Softplus", 1, 22, Eltwise(EltwiseOp::kSoftplus, dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gelu", 20, 20, Eltwise(EltwiseOp::kGelu, dnnl)));
  // Erf: oneDNN 2.x has no erf algorithm (only gelu_erf), so the host provider's kernel runs it
  // (ref's: a host loop of std::erf in float). Erf-13 drops the integer types of -9 and adds
  // bfloat16.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Erf", 9, 13, Borrowed(host)));
  // Clip-6 takes its bounds as attributes, Clip-11 on as optional inputs (12 and 13 add types).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 6, 10, With<ClipKernel>(dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 11, 13, With<ClipKernel>(dnnl)));

  // Arithmetic with numpy broadcasting (version 7 on; 13 and 14 add types).
  const std::pair<const char*, dnnl::algorithm> binary[] = {{"Add", dnnl::algorithm::binary_add},
                                                            {"Sub", dnnl::algorithm::binary_sub},
                                                            {"Mul", dnnl::algorithm::binary_mul},
                                                            {"Div", dnnl::algorithm::binary_div}};
  for (const auto& [op, algorithm] : binary) {
    const dnnl::algorithm alg = algorithm;
    ONNXGATE_RETURN_IF_ERROR(Def(r, op, 7, 14, [alg, dnnl](const KernelInfo& info) {
      return BinaryKernel::Create(info, alg, dnnl);
    }));
  }

  // MatMul (9 and 13 add types); Gemm from 7 (C broadcasts without the `broadcast` attribute;
  // 9 and 13 add types, 11 makes C optional).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMul", 1, 13, With<MatMulKernel>(dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 7, 13, With<GemmKernel>(dnnl)));

  // Softmax-13 and LogSoftmax-13: along one axis (earlier versions flatten to 2-D).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Softmax", 13, 13, [dnnl](const KernelInfo& info) {
    return SoftmaxKernel::Create(info, /*log=*/false, dnnl);
  }));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LogSoftmax", 13, 13, [dnnl](const KernelInfo& info) {
    return SoftmaxKernel::Create(info, /*log=*/true, dnnl);
  }));

  // Conv-11 and -22 (22 adds bfloat16).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Conv", 11, 22, With<ConvKernel>(dnnl)));
  // ConvTranspose-11 and -22 (22 adds bfloat16). ConvTranspose-1 is not claimed: its spec splits
  // an odd total padding of output_shape or auto_pad the other way round.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConvTranspose", 11, 22, With<ConvTransposeKernel>(dnnl)));

  // Pooling: MaxPool-8 adds Indices and storage_order, -10 ceil_mode and dilations, -11 and -12
  // types and wording, -22 bfloat16; AveragePool-7 adds count_include_pad, -10 ceil_mode, -19
  // dilations. The Indices output of MaxPool is declined at load (pool.h).
  auto pool = [&dnnl](PoolOp op) -> KernelFactory {
    return [op, dnnl](const KernelInfo& info) { return PoolKernel::Create(info, op, dnnl); };
  };
  const std::vector<TypeConstraint> max_pool_types = {{"T", {DataType::kFloat}},
                                                      {"I", {DataType::kInt64}}};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 1, 7, pool(PoolOp::kMaxPool)));
  ONNXGATE_RETURN_IF_ERROR(r.Register(
      KernelDef{"", "MaxPool", 8, 22, max_pool_types, FloatInputsOnly(pool(PoolOp::kMaxPool))}));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 1, 22, pool(PoolOp::kAveragePool)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalMaxPool", 1, 22, pool(PoolOp::kGlobalMaxPool)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalAveragePool", 1, 22, pool(PoolOp::kGlobalAveragePool)));

  // BatchNormalization in inference: -9 drops spatial, -14 adds training_mode (declined when
  // set) and U for the statistics, -15 splits the types of scale and bias (T1) and of the
  // statistics (T2); all float32 here.
  const KernelFactory batch = With<BatchNormalizationKernel>(dnnl);
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 9, 13, batch));
  ONNXGATE_RETURN_IF_ERROR(
      r.Register(KernelDef{"",
                           "BatchNormalization",
                           14,
                           14,
                           {{"T", {DataType::kFloat}}, {"U", {DataType::kFloat}}},
                           FloatInputsOnly(batch)}));
  ONNXGATE_RETURN_IF_ERROR(r.Register(
      KernelDef{"",
                "BatchNormalization",
                15,
                15,
                {{"T", {DataType::kFloat}}, {"T1", {DataType::kFloat}}, {"T2", {DataType::kFloat}}},
                FloatInputsOnly(batch)}));

  // LayerNormalization-17: X, Scale and B of T, Mean and InvStdDev of U, float32 both (a node
  // asking for bfloat16 statistics through stash_type is declined at load).
  ONNXGATE_RETURN_IF_ERROR(
      r.Register(KernelDef{"",
                           "LayerNormalization",
                           17,
                           17,
                           {{"T", {DataType::kFloat}}, {"U", {DataType::kFloat}}},
                           FloatInputsOnly(With<LayerNormalizationKernel>(dnnl))}));

  // Data movement: Transpose as one reorder (1 to 25 add types only), Concat on the concat
  // primitive (-4 requires the axis, -11 allows it negative, -13 adds types).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 1, 25, With<TransposeKernel>(dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 4, 10, With<ConcatKernel>(dnnl)));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 11, 13, With<ConcatKernel>(dnnl)));
  // Reshape computes nothing either (a view under the new shape, the host provider's zero-copy
  // kernel): -5 takes the shape as an int64 input, -14 adds allowzero, the later ones add types.
  const KernelFactory reshape = FloatDataInput(Borrowed(host));
  ONNXGATE_RETURN_IF_ERROR(
      r.Register(KernelDef{"", "Reshape", 5, 13, {{"T", {DataType::kFloat}}}, reshape}));
  ONNXGATE_RETURN_IF_ERROR(
      r.Register(KernelDef{"", "Reshape", 14, 25, {{"T", {DataType::kFloat}}}, reshape}));

  // Gather: oneDNN 2.x has no gather primitive, so the host provider's kernel runs it (ref's: a
  // host loop copying one inner block per index, indices int32 or int64, range-checked: an index
  // out of range is an error, never a read outside the data). Gather-11 allows negative indices,
  // -13 adds bfloat16.
  const KernelFactory gather = FloatDataInput(Borrowed(host, "Tind"));
  const std::vector<TypeConstraint> gather_types = {{"T", {DataType::kFloat}},
                                                    {"Tind", {DataType::kInt32, DataType::kInt64}}};
  ONNXGATE_RETURN_IF_ERROR(r.Register(KernelDef{"", "Gather", 1, 10, gather_types, gather}));
  ONNXGATE_RETURN_IF_ERROR(r.Register(KernelDef{"", "Gather", 11, 13, gather_types, gather}));

  // Identity hands its input on, a tensor resident in a oneDNN layout included (identity.h). The
  // constraint is T through -13 and V from -14, which adds sequences (-16 optionals, the later
  // ones types); a float32 tensor passes the same way in every version, so 1 to 25 are claimed.
  const KernelFactory identity = [dnnl, host](const KernelInfo& info) {
    return IdentityKernel::Create(info, dnnl, host);
  };
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Identity", 1, 13, identity));
  ONNXGATE_RETURN_IF_ERROR(r.Register(
      KernelDef{"", "Identity", 14, 25, {{"V", {DataType::kFloat}}}, FloatInputsOnly(identity)}));

  // Flatten computes nothing: the output is a view of the input's buffer under a 2-D shape, the
  // host provider's zero-copy kernel, so a CNN's classifier head stays on dnnl instead of
  // splitting the model around one reshape. Flatten-11 adds negative axes; 13 to 25 add types
  // only.
  const KernelFactory flatten = Borrowed(host);
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 1, 10, flatten));
  return Def(r, "Flatten", 11, 25, flatten);
}

}  // namespace onnxgate::dnnl_ep
