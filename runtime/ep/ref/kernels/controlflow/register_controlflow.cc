// The ref EP's registration table for ONNX's controlflow family (onnx/defs/controlflow): If, Loop
// and Scan; for V the types listed are the tensor element types. Each line transcribes one version
// range of the op's ONNX schema with the types it allows; ranges are split where the semantics or
// the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/controlflow/if.h"
#include "runtime/ep/ref/kernels/controlflow/loop.h"
#include "runtime/ep/ref/kernels/controlflow/scan.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

// If, Loop and Scan from opset 19: versions 19 (FLOAT8), 21 (INT4, UINT4), 23 (FLOAT4E2M1),
// 24 (FLOAT8E8M0) and 25 (INT2, UINT2) widen the types of V only.
Status DefWidenedVersions(KernelRegistry& r, const char* op, const KernelFactory& f,
                          const std::vector<TypeConstraint>& others) {
  const int sinces[] = {19, 21, 23, 24, 25};
  const size_t n = sizeof(sinces) / sizeof(sinces[0]);
  for (size_t i = 0; i < n; ++i) {
    const int until = i + 1 < n ? sinces[i + 1] - 1 : sinces[i];
    std::vector<TypeConstraint> constraints = {{"V", AllThrough(sinces[i])}};
    constraints.insert(constraints.end(), others.begin(), others.end());
    ONNXGATE_RETURN_IF_ERROR(Def(r, op, sinces[i], until, std::move(constraints), f));
  }
  return OkStatus();
}

Status RegisterSubgraphOps(KernelRegistry& r) {
  // If and Loop: sequences may flow from 13, optionals and bfloat16 from 16.
  const KernelFactory if_op = FactoryOf<IfKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 1, 10, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 11, 12, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 13, 15, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 16, 18, {{"V", All()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "If", if_op, {{"B", {kBool}}}));
  const KernelFactory loop = FactoryOf<LoopKernel>();
  const List i64 = {kI64};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Loop", 1, 10, {{"V", AllNoBF16()}, {"I", i64}, {"B", {kBool}}}, loop));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Loop", 11, 12, {{"V", AllNoBF16()}, {"I", i64}, {"B", {kBool}}}, loop));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Loop", 13, 15, {{"V", AllNoBF16()}, {"I", i64}, {"B", {kBool}}}, loop));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Loop", 16, 18, {{"V", All()}, {"I", i64}, {"B", {kBool}}}, loop));
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "Loop", loop, {{"I", i64}, {"B", {kBool}}}));
  // Scan-8: batched with sequence_lens; 9: axes and directions; 11: negative axes.
  const KernelFactory scan = FactoryOf<ScanKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 8, 8, {{"I", i64}, {"V", AllNoBF16()}}, scan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 9, 10, {{"V", AllNoBF16()}}, scan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 11, 15, {{"V", AllNoBF16()}}, scan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 16, 18, {{"V", All()}}, scan));
  return DefWidenedVersions(r, "Scan", scan, {});
}

}  // namespace

Status RegisterControlflowKernels(KernelRegistry& registry) {
  return RegisterSubgraphOps(registry);
}

}  // namespace onnxgate
