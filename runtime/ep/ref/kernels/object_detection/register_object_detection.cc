// The ref EP's registration table for ONNX's object_detection family (onnx/defs/object_detection):
// NonMaxSuppression and RoiAlign. Each line transcribes one version range of the op's ONNX schema
// with the types it allows; ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/object_detection/non_max_suppression.h"
#include "runtime/ep/ref/kernels/object_detection/roi_align.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterDetection(KernelRegistry& r) {
  // NonMaxSuppression's inputs are float and int64 without type constraints.
  const KernelFactory nms = FactoryOf<NonMaxSuppressionKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonMaxSuppression", 10, 10, {}, nms));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonMaxSuppression", 11, 11, {}, nms));
  // RoiAlign-16 adds coordinate_transformation_mode (half_pixel by default).
  const KernelFactory roi_align = FactoryOf<RoiAlignKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RoiAlign", 10, 15, {{"T1", F3()}, {"T2", {kI64}}}, roi_align));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RoiAlign", 16, 21, {{"T1", F3()}, {"T2", {kI64}}}, roi_align));
  return Def(r, "RoiAlign", 22, 22, {{"T1", F4()}, {"T2", {kI64}}}, roi_align);  // + bfloat16
}

}  // namespace

Status RegisterObjectDetectionKernels(KernelRegistry& registry) {
  return RegisterDetection(registry);
}

}  // namespace onnxgate
