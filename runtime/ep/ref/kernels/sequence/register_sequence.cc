// The ref EP's registration table for ONNX's sequence family (onnx/defs/sequence): the Sequence*
// ops, SplitToSequence, ConcatFromSequence and SequenceMap; for sequence constraints the types
// listed are the element types. Each line transcribes one version range of the op's ONNX schema
// with the types it allows; ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/sequence/sequence.h"
#include "runtime/ep/ref/kernels/sequence/sequence_map.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterSequenceOps(KernelRegistry& r) {
  const List s = AllNoBF16();
  const List index = {kI32, kI64};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SequenceEmpty", 11, 11, {{"S", s}}, FactoryOf<SequenceEmptyKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SequenceConstruct", 11, 11, {{"T", s}, {"S", s}},
                               FactoryOf<SequenceConstructKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SequenceInsert", 11, 11, {{"S", s}, {"T", s}, {"I", index}},
                               FactoryOf<SequenceInsertKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SequenceAt", 11, 11, {{"S", s}, {"T", s}, {"I", index}},
                               FactoryOf<SequenceAtKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SequenceErase", 11, 11, {{"S", s}, {"I", index}}, FactoryOf<SequenceEraseKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SequenceLength", 11, 11, {{"S", s}, {"I", {kI64}}},
                               FactoryOf<SequenceLengthKernel>()));
  const KernelFactory split = FactoryOf<SplitToSequenceKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SplitToSequence", 11, 23, {{"T", s}, {"I", index}, {"S", s}}, split));
  // SplitToSequence-24 adds bfloat16.
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SplitToSequence", 24, 24, {{"T", All()}, {"I", index}, {"S", All()}}, split));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConcatFromSequence", 11, 11, {{"S", s}, {"T", s}},
                               FactoryOf<ConcatFromSequenceKernel>()));
  // SequenceMap's additional inputs V may be tensors or sequences of any of these types.
  return Def(r, "SequenceMap", 17, 17, {{"S", s}, {"V", s}}, FactoryOf<SequenceMapKernel>());
}

}  // namespace

Status RegisterSequenceKernels(KernelRegistry& registry) { return RegisterSequenceOps(registry); }

}  // namespace onnxgate
