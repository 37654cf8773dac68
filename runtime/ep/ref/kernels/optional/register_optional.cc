// The ref EP's registration table for ONNX's optional family (onnx/defs/optional): Optional, OptionalHasElement and OptionalGetElement; the types listed are the element types. Each line
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
  const List v = AllNoBF16();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Optional", 15, 27, {{"V", v}, {"O", v}}, FactoryOf<OptionalKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalHasElement", 15, 17, {{"O", v}, {"B", {kBool}}},
                               FactoryOf<OptionalHasElementKernel>()));
  return Def(r, "OptionalGetElement", 15, 17, {{"O", v}, {"V", v}},
             FactoryOf<OptionalGetElementKernel>());
}

}  // namespace

Status RegisterOptionalKernels(KernelRegistry& registry) {
  return RegisterOptionalOps(registry);
}

}  // namespace onnxgate
