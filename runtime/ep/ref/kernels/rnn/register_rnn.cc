// The ref EP's registration table for ONNX's rnn family (onnx/defs/rnn): RNN, GRU and LSTM. Each
// line transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/rnn/rnn.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterRecurrentOps(KernelRegistry& r) {
  // 1: output_sequence; 7: without it; 14: layout; 22: bfloat16. GRU-3 adds
  // linear_before_reset.
  const std::vector<TypeConstraint> types = {{"T", F3()}, {"T1", {kI32}}};
  const std::vector<TypeConstraint> types22 = {{"T", F4()}, {"T1", {kI32}}};
  const KernelFactory rnn = FactoryOf<RnnKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 1, 6, types, rnn));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 7, 13, types, rnn));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 14, 21, types, rnn));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RNN", 22, 22, types22, rnn));
  const KernelFactory gru = FactoryOf<GruKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 1, 2, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 3, 6, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 7, 13, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 14, 21, types, gru));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GRU", 22, 22, types22, gru));
  const KernelFactory lstm = FactoryOf<LstmKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LSTM", 1, 6, types, lstm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LSTM", 7, 13, types, lstm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LSTM", 14, 21, types, lstm));
  return Def(r, "LSTM", 22, 22, types22, lstm);
}

}  // namespace

Status RegisterRnnKernels(KernelRegistry& registry) { return RegisterRecurrentOps(registry); }

}  // namespace onnxgate
