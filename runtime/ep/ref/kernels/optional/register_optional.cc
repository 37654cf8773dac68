// The ref EP's registration table for ONNX's optional family (onnx/defs/optional): Optional,
// OptionalHasElement and OptionalGetElement; the types listed are the element types. Each line
// transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/optional/optional.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterOptionalOps(KernelRegistry& r) {
  // Optional-28 and the -28 versions of the others widen the element types to every type of
  // opset 25 (FLOAT6E2M3 and FLOAT6E3M2, which the schema also lists, have no DataType here).
  // OptionalHasElement and OptionalGetElement accept plain tensors and sequences from 18.
  const List v = AllNoBF16();
  const List v28 = AllThrough(25);
  const KernelFactory optional = FactoryOf<OptionalKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Optional", 15, 27, {{"V", v}, {"O", v}}, optional));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Optional", 28, 28, {{"V", v28}, {"O", v28}}, optional));
  const KernelFactory has = FactoryOf<OptionalHasElementKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalHasElement", 15, 17, {{"O", v}, {"B", {kBool}}}, has));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalHasElement", 18, 27, {{"O", v}, {"B", {kBool}}}, has));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalHasElement", 28, 28, {{"O", v28}, {"B", {kBool}}}, has));
  const KernelFactory get = FactoryOf<OptionalGetElementKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalGetElement", 15, 17, {{"O", v}, {"V", v}}, get));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalGetElement", 18, 27, {{"O", v}, {"V", v}}, get));
  return Def(r, "OptionalGetElement", 28, 28, {{"O", v28}, {"V", v28}}, get);
}

}  // namespace

Status RegisterOptionalKernels(KernelRegistry& registry) { return RegisterOptionalOps(registry); }

}  // namespace onnxgate
