// The ref EP's registration table for ONNX's quantization family (onnx/defs/quantization):
// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear. Each line transcribes one version
// range of the op's ONNX schema with the types it allows; ranges are split where the semantics or
// the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/quantization/dequantize_linear.h"
#include "runtime/ep/ref/kernels/quantization/dynamic_quantize_linear.h"
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

// QuantizeLinear: 13 adds per-axis scales ('axis'); 19 float8 outputs ('saturate'), float16 and
// bfloat16 inputs; 21 blocked quantization ('block_size'), 'output_dtype', 16-bit and 4-bit
// outputs; 23 a scale type of its own, 'precision' and float4e2m1; 24 float8e8m0 scales; 25 2-bit
// outputs; 28 float6 outputs (types onnxgate does not have).
Status RegisterQuantize(KernelRegistry& r) {
  const KernelFactory quantize = FactoryOf<QuantizeLinearKernel>();
  const List q8 = {kI8, kU8};
  const List q19 = q8 + F8();
  const List q21 = List{kI8, kU8, kI16, kU16} + F8() + List{kU4, kI4};
  const List q23 = q21 + List{kF4E2M1};
  const List q25 = q23 + List{kU2, kI2};
  const List x19 = {kF32, kF16, kBF16, kI32};
  const List s24 = x19 + List{kF8E8M0};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 10, 12, {{"T1", {kF32, kI32}}, {"T2", q8}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 13, 18, {{"T1", {kF32, kI32}}, {"T2", q8}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "QuantizeLinear", 19, 20, {{"T1", x19}, {"T2", q19}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "QuantizeLinear", 21, 22, {{"T1", x19}, {"T2", q21}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 23, 23, {{"T1", x19}, {"T2", x19}, {"T3", q23}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 24, 24, {{"T1", x19}, {"T2", s24}, {"T3", q23}}, quantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QuantizeLinear", 25, 27, {{"T1", x19}, {"T2", s24}, {"T3", q25}}, quantize));
  return Def(r, "QuantizeLinear", 28, 28, {{"T1", x19}, {"T2", s24}, {"T3", q25}}, quantize);
}

// DequantizeLinear: the same steps, with 'output_dtype' from opset 23.
Status RegisterDequantize(KernelRegistry& r) {
  const KernelFactory dequantize = FactoryOf<DequantizeLinearKernel>();
  const List x19 = List{kI8, kU8, kI32} + F8();
  const List x21 = List{kI8, kU8, kI16, kU16, kI32} + F8() + List{kU4, kI4};
  const List x23 = x21 + List{kF4E2M1};
  const List x25 = x23 + List{kU2, kI2};
  const List f = {kF32, kF16, kBF16};
  const List s24 = f + List{kF8E8M0};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 10, 12, {{"T", {kI8, kU8, kI32}}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 13, 18, {{"T", {kI8, kU8, kI32}}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 19, 20, {{"T1", x19}, {"T2", f}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 21, 22, {{"T1", x21}, {"T2", f}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 23, 23, {{"T1", x23}, {"T2", f}, {"T3", f}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 24, 24, {{"T1", x23}, {"T2", s24}, {"T3", f}}, dequantize));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "DequantizeLinear", 25, 27, {{"T1", x25}, {"T2", s24}, {"T3", f}}, dequantize));
  return Def(r, "DequantizeLinear", 28, 28, {{"T1", x25}, {"T2", s24}, {"T3", f}}, dequantize);
}

Status RegisterQuantization(KernelRegistry& r) {
  ONNXGATE_RETURN_IF_ERROR(RegisterQuantize(r));
  ONNXGATE_RETURN_IF_ERROR(RegisterDequantize(r));
  return Def(r, "DynamicQuantizeLinear", 11, 11, {{"T1", {kF32}}, {"T2", {kU8}}},
             FactoryOf<DynamicQuantizeLinearKernel>());
}

}  // namespace

Status RegisterQuantizationKernels(KernelRegistry& registry) {
  return RegisterQuantization(registry);
}

}  // namespace onnxgate
