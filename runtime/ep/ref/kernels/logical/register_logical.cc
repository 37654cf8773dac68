// The ref EP's registration table for ONNX's logical family (onnx/defs/logical): the
// comparisons, boolean logic, BitShift and the Bitwise ops. Each line transcribes one version
// range of the op's ONNX schema with the types it allows; ranges are split where the semantics
// or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/logical/bit_shift.h"
#include "runtime/ep/ref/kernels/logical/bitwise.h"
#include "runtime/ep/ref/kernels/logical/compare_logic.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterComparisons(KernelRegistry& r) {
  const List b = {kBool};
  const KernelFactory equal = FactoryOf<CompareKernel<CompareOp::kEqual>>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Equal", 1, 6, {{"T", {kBool, kI32, kI64}}, {"T1", b}}, equal));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Equal", 7, 10, {{"T", {kBool, kI32, kI64}}, {"T1", b}}, equal));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Equal", 11, 12, {{"T", b + Ints() + F3()}, {"T1", b}}, equal));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Equal", 13, 18, {{"T", b + Ints() + F4()}, {"T1", b}}, equal));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Equal", 19, 19, {{"T", b + Ints() + F4() + List{kStr}}, {"T1", b}}, equal));
  const std::pair<const char*, KernelFactory> ordered[] = {
      {"Less", FactoryOf<CompareKernel<CompareOp::kLess>>()},
      {"Greater", FactoryOf<CompareKernel<CompareOp::kGreater>>()}};
  for (const auto& [name, f] : ordered) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 6, {{"T", F3()}, {"T1", b}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 7, 8, {{"T", F3()}, {"T1", b}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 9, 12, {{"T", Ints() + F3()}, {"T1", b}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 13, {{"T", Ints() + F4()}, {"T1", b}}, f));
  }
  const std::pair<const char*, KernelFactory> or_equal[] = {
      {"LessOrEqual", FactoryOf<CompareKernel<CompareOp::kLessOrEqual>>()},
      {"GreaterOrEqual", FactoryOf<CompareKernel<CompareOp::kGreaterOrEqual>>()}};
  for (const auto& [name, f] : or_equal) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 12, 15, {{"T", Ints() + F3()}, {"T1", b}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 16, 16, {{"T", Ints() + F4()}, {"T1", b}}, f));
  }
  return OkStatus();
}

Status RegisterLogicAndBits(KernelRegistry& r) {
  const List b = {kBool};
  const std::pair<const char*, KernelFactory> logic[] = {
      {"And", FactoryOf<LogicKernel<LogicOp::kAnd>>()},
      {"Or", FactoryOf<LogicKernel<LogicOp::kOr>>()},
      {"Xor", FactoryOf<LogicKernel<LogicOp::kXor>>()}};
  for (const auto& [name, f] : logic) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 6, {{"T", b}, {"T1", b}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 7, 7, {{"T", b}, {"T1", b}}, f));
  }
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Not", 1, 1, {{"T", b}}, FactoryOf<NotKernel>()));
  // BitShift-28 adds the signed integers (arithmetic right shift).
  const KernelFactory bit_shift = FactoryOf<BitShiftKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BitShift", 11, 27, {{"T", {kU8, kU16, kU32, kU64}}}, bit_shift));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BitShift", 28, 28, {{"T", Ints()}}, bit_shift));
  const std::pair<const char*, KernelFactory> bitwise[] = {
      {"BitwiseAnd", FactoryOf<BitwiseKernel<BitwiseOp::kAnd>>()},
      {"BitwiseOr", FactoryOf<BitwiseKernel<BitwiseOp::kOr>>()},
      {"BitwiseXor", FactoryOf<BitwiseKernel<BitwiseOp::kXor>>()},
      {"BitwiseNot", FactoryOf<BitwiseNotKernel>()}};
  for (const auto& [name, f] : bitwise) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 18, 18, {{"T", Ints()}}, f));
  }
  return OkStatus();
}

}  // namespace

Status RegisterLogicalKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterComparisons(registry));
  return RegisterLogicAndBits(registry);
}

}  // namespace onnxgate
