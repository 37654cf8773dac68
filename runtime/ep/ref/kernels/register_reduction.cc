// The ref EP's registration table for reductions and their relatives: Reduce*, ArgMax/ArgMin,
// TopK, CumSum, the losses, Einsum, Det, NonZero, Unique, OneHot, Trilu and EyeLike. Each line
// transcribes one version range of the op's ONNX schema (ONNX 1.12, opsets 1 to 17) with the
// types it allows; ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/arg_min_max.h"
#include "runtime/ep/ref/kernels/cum_sum.h"
#include "runtime/ep/ref/kernels/det.h"
#include "runtime/ep/ref/kernels/einsum.h"
#include "runtime/ep/ref/kernels/loss.h"
#include "runtime/ep/ref/kernels/non_zero.h"
#include "runtime/ep/ref/kernels/one_hot.h"
#include "runtime/ep/ref/kernels/reduce.h"
#include "runtime/ep/ref/kernels/top_k.h"
#include "runtime/ep/ref/kernels/trilu.h"
#include "runtime/ep/ref/kernels/registration_table.h"
#include "runtime/ep/ref/kernels/type_lists.h"
#include "runtime/ep/ref/kernels/unique.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

// Opset 18 turns the `axes` attribute of every Reduce* but ReduceSum into an input; those
// kernels read the attribute, so their claim stops at 17.
constexpr int kLastAxesAttributeOpset = 17;

Status RegisterReduce(KernelRegistry& r) {
  const List reduce1 = {kU32, kU64, kI32, kI64, kF16, kF32, kF64};
  struct Op {
    const char* name;
    KernelFactory factory;
    bool int8_from_12;  // ReduceMax and ReduceMin take int8 and uint8 from opset 12
  };
  const Op ops[] = {
      {"ReduceMean", FactoryOf<ReduceKernel<ReduceOp::kMean>>(), false},
      {"ReduceMax", FactoryOf<ReduceKernel<ReduceOp::kMax>>(), true},
      {"ReduceMin", FactoryOf<ReduceKernel<ReduceOp::kMin>>(), true},
      {"ReduceProd", FactoryOf<ReduceKernel<ReduceOp::kProd>>(), false},
      {"ReduceL1", FactoryOf<ReduceKernel<ReduceOp::kL1>>(), false},
      {"ReduceL2", FactoryOf<ReduceKernel<ReduceOp::kL2>>(), false},
      {"ReduceLogSum", FactoryOf<ReduceKernel<ReduceOp::kLogSum>>(), false},
      {"ReduceLogSumExp", FactoryOf<ReduceKernel<ReduceOp::kLogSumExp>>(), false},
      {"ReduceSumSquare", FactoryOf<ReduceKernel<ReduceOp::kSumSquare>>(), false},
  };
  for (const Op& op : ops) {
    // 1: axes >= 0; 11: negative axes; 13: bfloat16.
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 1, 10, {{"T", reduce1}}, op.factory));
    if (op.int8_from_12) {
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 11, 11, {{"T", reduce1}}, op.factory));
      ONNXGATE_RETURN_IF_ERROR(
          Def(r, op.name, 12, 12, {{"T", reduce1 + List{kU8, kI8}}}, op.factory));
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 13, kLastAxesAttributeOpset,
                                   {{"T", reduce1 + List{kBF16, kU8, kI8}}}, op.factory));
    } else {
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 11, 12, {{"T", reduce1}}, op.factory));
      ONNXGATE_RETURN_IF_ERROR(
          Def(r, op.name, 13, kLastAxesAttributeOpset, {{"T", reduce1 + List{kBF16}}}, op.factory));
    }
  }
  // ReduceSum-13 takes axes as an optional input and adds noop_with_empty_axes.
  const KernelFactory sum = FactoryOf<ReduceKernel<ReduceOp::kSum>>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 1, 10, {{"T", reduce1}}, sum));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 11, 12, {{"T", reduce1}}, sum));
  return Def(r, "ReduceSum", 13, 13, {{"T", reduce1 + List{kBF16}}}, sum);
}

Status RegisterSelection(KernelRegistry& r) {
  const List arg = Ints() + F3();
  const std::pair<const char*, KernelFactory> args[] = {{"ArgMax", FactoryOf<ArgMaxKernel>()},
                                                        {"ArgMin", FactoryOf<ArgMinKernel>()}};
  for (const auto& [name, f] : args) {
    // 11: negative axis; 12: select_last_index; 13: bfloat16.
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 10, {{"T", arg}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 11, 11, {{"T", arg}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 12, 12, {{"T", arg}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 13, {{"T", arg + List{kBF16}}}, f));
  }
  // TopK-1: k attribute; 10: K input; 11: largest, sorted, integers.
  const KernelFactory top_k = FactoryOf<TopKKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 1, 9, {{"T", F3()}, {"I", {kI64}}}, top_k));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 10, 10, {{"T", F3()}, {"I", {kI64}}}, top_k));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 11, 23, {{"T", Ints() + F3()}, {"I", {kI64}}}, top_k));
  // CumSum-14 adds float16 and bfloat16.
  const KernelFactory cum_sum = FactoryOf<CumSumKernel>();
  const List cum11 = {kU32, kU64, kI32, kI64, kF32, kF64};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CumSum", 11, 13, {{"T", cum11}, {"T2", {kI32, kI64}}}, cum_sum));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "CumSum", 14, 14, {{"T", cum11 + List{kF16, kBF16}}, {"T2", {kI32, kI64}}}, cum_sum));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NonZero", 9, 12, {{"T", AllNoBF16()}}, FactoryOf<NonZeroKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonZero", 13, 13, {{"T", All()}}, FactoryOf<NonZeroKernel>()));
  return Def(r, "Unique", 11, 27, {{"T", AllNoBF16()}}, FactoryOf<UniqueKernel>());
}

Status RegisterLosses(KernelRegistry& r) {
  const List tind = {kI32, kI64};
  const KernelFactory nll = FactoryOf<NegativeLogLikelihoodLossKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NegativeLogLikelihoodLoss", 12, 12, {{"T", F3()}, {"Tind", tind}}, nll));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NegativeLogLikelihoodLoss", 13, 21, {{"T", F3()}, {"Tind", tind}}, nll));
  const KernelFactory sce = FactoryOf<SoftmaxCrossEntropyLossKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SoftmaxCrossEntropyLoss", 12, 12, {{"T", F3()}, {"Tind", tind}}, sce));
  return Def(r, "SoftmaxCrossEntropyLoss", 13, 13, {{"T", F4()}, {"Tind", tind}}, sce);
}

Status RegisterMatrixOps(KernelRegistry& r) {
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Einsum", 12, 27, {{"T", Ints() + F3()}}, FactoryOf<EinsumKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Det", 11, 21, {{"T", F3()}}, FactoryOf<DetKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Trilu", 14, 14, {{"T", All()}}, FactoryOf<TriluKernel>()));
  const List eye = F3() + Ints() + List{kBool};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "EyeLike", 9, 21, {{"T1", eye}, {"T2", eye}}, FactoryOf<EyeLikeKernel>()));
  // OneHot-11 accepts negative indices and axes.
  const List numeric = Ints() + F3();
  const KernelFactory one_hot = FactoryOf<OneHotKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "OneHot", 9, 10, {{"T1", numeric}, {"T2", numeric}, {"T3", AllNoBF16()}}, one_hot));
  return Def(r, "OneHot", 11, 27, {{"T1", numeric}, {"T2", numeric}, {"T3", AllNoBF16()}},
             one_hot);
}

}  // namespace

Status RegisterReductionKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterReduce(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterSelection(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterLosses(registry));
  return RegisterMatrixOps(registry);
}

}  // namespace onnxgate
