// The ref EP's registration table for quantization, resampling, padding, gather/scatter and
// detection ops. Each line transcribes one version range of the op's ONNX schema (ONNX 1.12,
// opsets 1 to 17) with the types it allows; ranges are split where the semantics or the type
// list change.
#include "runtime/ep/ref/kernels/compress.h"
#include "runtime/ep/ref/kernels/depth_space.h"
#include "runtime/ep/ref/kernels/gather_scatter_elements.h"
#include "runtime/ep/ref/kernels/gather_scatter_nd.h"
#include "runtime/ep/ref/kernels/grid_sample.h"
#include "runtime/ep/ref/kernels/max_unpool.h"
#include "runtime/ep/ref/kernels/non_max_suppression.h"
#include "runtime/ep/ref/kernels/pad.h"
#include "runtime/ep/ref/kernels/quantize_linear.h"
#include "runtime/ep/ref/kernels/quantized_conv.h"
#include "runtime/ep/ref/kernels/quantized_matmul.h"
#include "runtime/ep/ref/kernels/resize.h"
#include "runtime/ep/ref/kernels/reverse_sequence.h"
#include "runtime/ep/ref/kernels/roi_pool.h"
#include "runtime/ep/ref/kernels/registration_table.h"
#include "runtime/ep/ref/kernels/type_lists.h"
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
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DynamicQuantizeLinear", 11, 11, {{"T1", {kF32}}, {"T2", {kU8}}},
                               FactoryOf<DynamicQuantizeLinearKernel>()));
  const KernelFactory conv = FactoryOf<QuantizedConvKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QLinearConv", 10, 10, {{"T1", q8}, {"T2", q8}, {"T3", q8}, {"T4", {kI32}}}, conv));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConvInteger", 10, 10, {{"T1", q8}, {"T2", q8}, {"T3", {kI32}}}, conv));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "QLinearMatMul", 10, 20, {{"T1", q8}, {"T2", q8}, {"T3", q8}},
                               FactoryOf<QLinearMatMulKernel>()));
  return Def(r, "MatMulInteger", 10, 10, {{"T1", q8}, {"T2", q8}, {"T3", {kI32}}},
             FactoryOf<MatMulIntegerKernel>());
}

Status RegisterResampling(KernelRegistry& r) {
  const KernelFactory resize = FactoryOf<ResizeKernel>();
  // Upsample-7 takes scales as an attribute, -9 as an input; -10 is deprecated in favour of
  // Resize. Resize-10 is Upsample-9 that may downsample; -11 adds roi, sizes and the modes.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Upsample", 7, 8, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Upsample", 9, 9, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 10, 10, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 11, 12, {{"T1", AllNoBF16()}, {"T2", F3()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 13, 17, {{"T1", All()}, {"T2", F3()}}, resize));
  // GridSample's schema lists every type for X and grid (both T1); the interpolations are
  // defined for floats, the type of Y (T2).
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GridSample", 16, 19, {{"T1", F3()}, {"T2", F3()}}, FactoryOf<GridSampleKernel>()));
  const KernelFactory unpool = FactoryOf<MaxUnpoolKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxUnpool", 9, 10, {{"T1", F3()}, {"T2", {kI64}}}, unpool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxUnpool", 11, 21, {{"T1", F3()}, {"T2", {kI64}}}, unpool));
  // Pad-1 names the pads 'paddings', -2 'pads'; -11 moves pads and the constant to inputs.
  const KernelFactory pad = FactoryOf<PadKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 1, 1, {{"T", F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 2, 10, {{"T", F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 11, 12, {{"T", Ints() + F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 13, 17, {{"T", All()}}, pad));
  const KernelFactory depth = FactoryOf<DepthSpaceKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 1, 10, {{"T", AllNoBF16()}}, depth));  // DCR only
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 11, 12, {{"T", AllNoBF16()}}, depth));  // + mode
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 13, 27, {{"T", All()}}, depth));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SpaceToDepth", 1, 12, {{"T", AllNoBF16()}}, depth));
  return Def(r, "SpaceToDepth", 13, 27, {{"T", All()}}, depth);
}

Status RegisterGatherScatter(KernelRegistry& r) {
  const List tind = {kI32, kI64};
  const KernelFactory gather_elements = FactoryOf<GatherElementsKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherElements", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, gather_elements));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherElements", 13, 13, {{"T", All()}, {"Tind", tind}}, gather_elements));
  // Scatter-9/10 is ScatterElements under its first name (Scatter-11 is deprecated).
  const KernelFactory scatter = FactoryOf<ScatterElementsKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scatter", 9, 10, {{"T", AllNoBF16()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 13, 15, {{"T", All()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 16, 17, {{"T", All()}, {"Tind", tind}}, scatter));
  const KernelFactory gather_nd = FactoryOf<GatherNDKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GatherND", 11, 11, {{"T", AllNoBF16()}}, gather_nd));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherND", 12, 12, {{"T", AllNoBF16()}}, gather_nd));  // batch_dims
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GatherND", 13, 13, {{"T", All()}}, gather_nd));
  const KernelFactory scatter_nd = FactoryOf<ScatterNDKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 11, 12, {{"T", AllNoBF16()}}, scatter_nd));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 13, 15, {{"T", All()}}, scatter_nd));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 16, 17, {{"T", All()}}, scatter_nd));  // reduction
  // Compress-11 allows a negative axis.
  const KernelFactory compress = FactoryOf<CompressKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Compress", 9, 10, {{"T", AllNoBF16()}, {"T1", {kBool}}}, compress));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Compress", 11, 27, {{"T", AllNoBF16()}, {"T1", {kBool}}}, compress));
  return Def(r, "ReverseSequence", 10, 27, {{"T", AllNoBF16()}},
             FactoryOf<ReverseSequenceKernel>());
}

Status RegisterDetection(KernelRegistry& r) {
  // NonMaxSuppression's inputs are float and int64 without type constraints.
  const KernelFactory nms = FactoryOf<NonMaxSuppressionKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonMaxSuppression", 10, 10, {}, nms));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonMaxSuppression", 11, 11, {}, nms));
  // RoiAlign-16 adds coordinate_transformation_mode (half_pixel by default).
  const KernelFactory roi_align = FactoryOf<RoiAlignKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RoiAlign", 10, 15, {{"T1", F3()}, {"T2", {kI64}}}, roi_align));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RoiAlign", 16, 21, {{"T1", F3()}, {"T2", {kI64}}}, roi_align));
  return Def(r, "MaxRoiPool", 1, 21, {{"T", F3()}}, FactoryOf<MaxRoiPoolKernel>());
}

}  // namespace

Status RegisterIndexingKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterQuantization(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterResampling(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterGatherScatter(registry));
  return RegisterDetection(registry);
}

}  // namespace onnxgate
