// The ref EP's registration table for ONNX's image family (onnx/defs/image), each line one
// version range of the op's ONNX schema with the types it allows.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/image/image_decoder.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

}  // namespace

Status RegisterImageKernels(KernelRegistry& r) {
  return Def(r, "ImageDecoder", 20, 20, {{"T1", {kU8}}, {"T2", {kU8}}},
             FactoryOf<ImageDecoderKernel>());
}

}  // namespace onnxgate
