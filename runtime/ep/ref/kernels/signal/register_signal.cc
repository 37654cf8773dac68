// The ref EP's registration table for DFT, STFT, the window functions and MelWeightMatrix. Each
// line transcribes one ONNX schema version of the op (opset 17; DFT also 20) with the types it
// allows.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/signal/dft.h"
#include "runtime/ep/ref/kernels/signal/mel_weight_matrix.h"
#include "runtime/ep/ref/kernels/signal/signal_window.h"
#include "runtime/ep/ref/kernels/signal/stft.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

}  // namespace

Status RegisterSignalKernels(KernelRegistry& registry) {
  using ref::CosineSumWindow;
  using ref::Dft;
  using ref::MelWeightMatrix;
  using ref::Stft;
  // Lengths and sizes are int32 or int64; signals are floats; the generated windows and mel
  // matrices may be any numeric type (output_datatype).
  const List lengths = {kI32, kI64};
  const List numeric = Ints() + F4();
  ONNXGATE_RETURN_IF_ERROR(
      Def(registry, "DFT", 17, 19, {{"T1", F4()}, {"T2", lengths}}, FactoryOf<Dft>()));
  // DFT-20 takes the axis as an input.
  ONNXGATE_RETURN_IF_ERROR(
      Def(registry, "DFT", 20, 20, {{"T1", F4()}, {"T2", lengths}}, FactoryOf<Dft>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(registry, "STFT", 17, 17, {{"T1", F4()}, {"T2", lengths}}, FactoryOf<Stft>()));
  for (const char* window : {"HannWindow", "HammingWindow", "BlackmanWindow"}) {
    ONNXGATE_RETURN_IF_ERROR(Def(registry, window, 17, 17, {{"T1", lengths}, {"T2", numeric}},
                                 FactoryOf<CosineSumWindow>()));
  }
  return Def(registry, "MelWeightMatrix", 17, 17, {{"T1", lengths}, {"T2", F4()}, {"T3", numeric}},
             FactoryOf<MelWeightMatrix>());
}

}  // namespace onnxgate
