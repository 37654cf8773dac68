// The ref EP's registration table for ONNX's controlflow family (onnx/defs/controlflow): If, Loop and Scan; for V the types listed are the tensor element types. Each line
// transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
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

Status RegisterSubgraphOps(KernelRegistry& r) {
  // If and Loop: sequences may flow from 13, optionals and bfloat16 from 16.
  const KernelFactory if_op = FactoryOf<IfKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 1, 10, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 11, 12, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 13, 15, {{"V", AllNoBF16()}, {"B", {kBool}}}, if_op));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "If", 16, 18, {{"V", All()}, {"B", {kBool}}}, if_op));
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
  // Scan-8: batched with sequence_lens; 9: axes and directions; 11: negative axes.
  const KernelFactory scan = FactoryOf<ScanKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 8, 8, {{"I", i64}, {"V", AllNoBF16()}}, scan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 9, 10, {{"V", AllNoBF16()}}, scan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scan", 11, 15, {{"V", AllNoBF16()}}, scan));
  return Def(r, "Scan", 16, 18, {{"V", All()}}, scan);
}

}  // namespace

Status RegisterControlflowKernels(KernelRegistry& registry) {
  return RegisterSubgraphOps(registry);
}

}  // namespace onnxgate
