// The ref EP's registration table for ONNX's reduction family (onnx/defs/reduction): the
// Reduce* ops, ArgMax and ArgMin. Each line transcribes one version range of the op's ONNX
// schema with the types it allows; ranges are split where the semantics or the type list change.
#include <string>

#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/reduction/arg_min_max.h"
#include "runtime/ep/ref/kernels/reduction/reduce.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

// Opset 18 turns the `axes` attribute of every Reduce* but ReduceSum into an optional input and
// adds noop_with_empty_axes; the kernels read the attribute up to 17 and the input from 18.
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
  // 18: axes as an optional input. ReduceMax and ReduceMin take bool from 20; ReduceLogSum and
  // ReduceLogSumExp keep only the float types from 28.
  const List reduce18 = reduce1 + List{kBF16};
  for (const Op& op : ops) {
    const std::string name = op.name;
    if (op.int8_from_12) {
      const List t = reduce18 + List{kU8, kI8};
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 18, 19, {{"T", t}}, op.factory));
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 20, 20, {{"T", t + List{kBool}}}, op.factory));
    } else if (name == "ReduceLogSum" || name == "ReduceLogSumExp") {
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 18, 27, {{"T", reduce18}}, op.factory));
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 28, 28, {{"T", F4()}}, op.factory));
    } else {
      ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 18, 18, {{"T", reduce18}}, op.factory));
    }
  }
  // ReduceSum-13 takes axes as an optional input and adds noop_with_empty_axes.
  const KernelFactory sum = FactoryOf<ReduceKernel<ReduceOp::kSum>>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 1, 10, {{"T", reduce1}}, sum));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReduceSum", 11, 12, {{"T", reduce1}}, sum));
  return Def(r, "ReduceSum", 13, 13, {{"T", reduce18}}, sum);
}

Status RegisterArgMinMax(KernelRegistry& r) {
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
  return OkStatus();
}

}  // namespace

Status RegisterReductionKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterReduce(registry));
  return RegisterArgMinMax(registry);
}

}  // namespace onnxgate
