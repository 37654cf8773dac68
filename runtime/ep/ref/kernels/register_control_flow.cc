// The ref EP's registration table for control flow (If, Loop, Scan), sequence, optional and
// recurrent (RNN, GRU, LSTM) ops. Each line transcribes one version range of the op's ONNX
// schema (ONNX 1.12, opsets 1 to 17) with the types it allows; for sequence and optional
// constraints the types listed are the element types.
#include "runtime/ep/ref/kernels/if.h"
#include "runtime/ep/ref/kernels/loop.h"
#include "runtime/ep/ref/kernels/optional.h"
#include "runtime/ep/ref/kernels/rnn.h"
#include "runtime/ep/ref/kernels/scan.h"
#include "runtime/ep/ref/kernels/sequence.h"
#include "runtime/ep/ref/kernels/sequence_map.h"
#include "runtime/ep/ref/kernels/registration_table.h"
#include "runtime/ep/ref/kernels/type_lists.h"
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
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SplitToSequence", 11, 23, {{"T", s}, {"I", index}, {"S", s}},
                               FactoryOf<SplitToSequenceKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConcatFromSequence", 11, 11, {{"S", s}, {"T", s}},
                               FactoryOf<ConcatFromSequenceKernel>()));
  // SequenceMap's additional inputs V may be tensors or sequences of any of these types.
  return Def(r, "SequenceMap", 17, 17, {{"S", s}, {"V", s}}, FactoryOf<SequenceMapKernel>());
}

Status RegisterOptionalOps(KernelRegistry& r) {
  const List v = AllNoBF16();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Optional", 15, 27, {{"V", v}, {"O", v}}, FactoryOf<OptionalKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "OptionalHasElement", 15, 17, {{"O", v}, {"B", {kBool}}},
                               FactoryOf<OptionalHasElementKernel>()));
  return Def(r, "OptionalGetElement", 15, 17, {{"O", v}, {"V", v}},
             FactoryOf<OptionalGetElementKernel>());
}

Status RegisterRecurrentOps(KernelRegistry& r) {
  // 1: output_sequence; 7: without it; 14: layout. GRU-3 adds linear_before_reset.
  const std::vector<TypeConstraint> types = {{"T", F3()}, {"T1", {kI32}}};
  const KernelFactory rnn = FactoryOf<RnnKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 1, 6, types, rnn));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 7, 13, types, rnn));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 14, 21, types, rnn));
  const KernelFactory gru = FactoryOf<GruKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 1, 2, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 3, 6, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 7, 13, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 14, 21, types, gru));
  const KernelFactory lstm = FactoryOf<LstmKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LSTM", 1, 6, types, lstm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LSTM", 7, 13, types, lstm));
  return Def(r, "LSTM", 14, 21, types, lstm);
}

}  // namespace

Status RegisterControlFlowKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterSubgraphOps(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterSequenceOps(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterOptionalOps(registry));
  return RegisterRecurrentOps(registry);
}

}  // namespace onnxgate
