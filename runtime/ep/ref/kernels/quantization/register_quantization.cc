// The ref EP's registration table for ONNX's quantization family (onnx/defs/quantization): QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear. Each line
// transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterQuantization(KernelRegistry& r) {
  const List q8 = {kI8, kU8};
  // QuantizeLinear and DequantizeLinear-13 add per-axis scales ('axis').
  const KernelFactory quantize = FactoryOf<QuantizeLinearKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 10, 12, {{"T1", {kF32, kI32}}, {"T2", q8}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 13, 18, {{"T1", {kF32, kI32}}, {"T2", q8}}, quantize));
  const KernelFactory dequantize = FactoryOf<DequantizeLinearKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 10, 12, {{"T", {kI8, kU8, kI32}}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 13, 18, {{"T", {kI8, kU8, kI32}}}, dequantize));
  return Def(r, "DynamicQuantizeLinear", 11, 11, {{"T1", {kF32}}, {"T2", {kU8}}},
                               FactoryOf<DynamicQuantizeLinearKernel>());
}

}  // namespace

Status RegisterQuantizationKernels(KernelRegistry& registry) {
  return RegisterQuantization(registry);
}

}  // namespace onnxgate
